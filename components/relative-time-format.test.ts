import { describe, expect, it } from 'vitest';
import { formatExactUtc, formatRelative } from './relative-time-format';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatRelative', () => {
  it('reads the last minute as just now, either side of now', () => {
    expect(formatRelative(ago(0), NOW)).toBe('just now');
    expect(formatRelative(ago(59_999), NOW)).toBe('just now');
    expect(formatRelative(ago(-59_999), NOW)).toBe('just now');
  });

  it('rounds down to whole minutes, hours and days', () => {
    expect(formatRelative(ago(MIN), NOW)).toBe('1 min ago');
    expect(formatRelative(ago(3 * MIN + 59_000), NOW)).toBe('3 min ago');
    expect(formatRelative(ago(HOUR - 1), NOW)).toBe('59 min ago');
    expect(formatRelative(ago(HOUR), NOW)).toBe('1 h ago');
    expect(formatRelative(ago(DAY - 1), NOW)).toBe('23 h ago');
    expect(formatRelative(ago(DAY), NOW)).toBe('1 day ago');
    expect(formatRelative(ago(2 * DAY + 23 * HOUR), NOW)).toBe('2 days ago');
    expect(formatRelative(ago(30 * DAY + 23 * HOUR), NOW)).toBe('30 days ago');
  });

  it('says "in" for a time still to come (an invitation that expires)', () => {
    expect(formatRelative(ago(-5 * MIN), NOW)).toBe('in 5 min');
    expect(formatRelative(ago(-7 * DAY), NOW)).toBe('in 7 days');
    expect(formatRelative(ago(-DAY), NOW)).toBe('in 1 day');
  });

  it('shows the UTC date past a month', () => {
    expect(formatRelative(ago(31 * DAY), NOW)).toBe('2026-10-23');
    expect(formatRelative(ago(-40 * DAY), NOW)).toBe('2027-01-02');
  });
});

describe('formatExactUtc', () => {
  it('is the instant in UTC to the second, labelled', () => {
    expect(formatExactUtc(new Date('2026-11-23T09:05:07.891Z'))).toBe('2026-11-23 09:05:07 UTC');
  });
});
