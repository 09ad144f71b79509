import { describe, expect, it } from 'vitest';
import { describeChange, formatAge } from './change';

describe('describeChange', () => {
  it('says nothing moved, with or without traffic', () => {
    expect(describeChange(0, 0, 'worse')).toEqual({ text: '—', tone: 'neutral' });
    expect(describeChange(7, 7, 'worse')).toEqual({ text: 'no change', tone: 'neutral' });
  });

  it('gives the difference and the percentage, coloured by whether a rise is bad news', () => {
    expect(describeChange(5, 4, 'worse')).toEqual({ text: '+1 (+25%)', tone: 'worse' });
    expect(describeChange(3, 4, 'worse')).toEqual({ text: '−1 (−25%)', tone: 'better' });
    expect(describeChange(1500, 1000, 'neutral')).toEqual({ text: '+500 (+50%)', tone: 'neutral' });
    expect(describeChange(1, 3, 'neutral')).toEqual({ text: '−2 (−67%)', tone: 'neutral' });
  });

  it('keeps small changes visible and large ones readable', () => {
    expect(describeChange(1001, 1000, 'worse').text).toBe('+1 (+<1%)');
    expect(describeChange(1050, 1000, 'worse').text).toBe('+50 (+5%)');
    expect(describeChange(1055, 1000, 'worse').text).toBe('+55 (+5.5%)');
    expect(describeChange(25_000, 10, 'worse').text).toBe('+24,990 (+249,900%)');
  });

  it('has no percentage against an empty window', () => {
    expect(describeChange(3, 0, 'worse')).toEqual({ text: '+3 (from 0)', tone: 'worse' });
    expect(describeChange(0, 3, 'worse')).toEqual({ text: '−3 (−100%)', tone: 'better' });
  });
});

describe('formatAge', () => {
  const now = '2026-11-26T12:00:00.000Z';
  it('counts seconds, minutes, hours and days', () => {
    expect(formatAge('2026-11-26T11:59:15.000Z', now)).toBe('45 s');
    expect(formatAge('2026-11-26T11:57:00.000Z', now)).toBe('3 min');
    expect(formatAge('2026-11-26T09:55:00.000Z', now)).toBe('2 h 05 min');
    expect(formatAge('2026-11-22T12:00:00.000Z', now)).toBe('4 days');
  });

  it('never goes negative when the clocks disagree', () => {
    expect(formatAge('2026-11-26T12:00:05.000Z', now)).toBe('0 s');
  });
});
