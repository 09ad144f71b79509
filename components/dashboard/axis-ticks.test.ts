import { describe, expect, it } from 'vitest';
import { axisTicks } from './axis-ticks';

describe('axisTicks', () => {
  it('reads 0, 1 when the maximum is 1, and never repeats a label', () => {
    expect(axisTicks(1)).toEqual([0, 1]);
    expect(axisTicks(2)).toEqual([0, 1, 2]);
    expect(axisTicks(3)).toEqual([0, 1, 2, 3]);
    expect(axisTicks(4)).toEqual([0, 1, 2, 3, 4]);
  });

  it('steps by 1, 2 or 5 times a power of ten, topping out at or just above the maximum', () => {
    expect(axisTicks(5)).toEqual([0, 2, 4, 6]);
    expect(axisTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(axisTicks(9)).toEqual([0, 5, 10]);
    expect(axisTicks(10)).toEqual([0, 5, 10]);
    expect(axisTicks(17)).toEqual([0, 5, 10, 15, 20]);
    expect(axisTicks(21)).toEqual([0, 10, 20, 30]);
    expect(axisTicks(73)).toEqual([0, 20, 40, 60, 80]);
    expect(axisTicks(999)).toEqual([0, 500, 1000]);
    expect(axisTicks(1_234_567)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
  });

  it('takes fewer intervals when asked: 0/1, 0/2/4, 0/5/10', () => {
    expect(axisTicks(1, 2)).toEqual([0, 1]);
    expect(axisTicks(3, 2)).toEqual([0, 2, 4]);
    expect(axisTicks(7, 2)).toEqual([0, 5, 10]);
  });

  it('is 0, 1 for nothing to draw, and rounds a fractional maximum up', () => {
    expect(axisTicks(0)).toEqual([0, 1]);
    expect(axisTicks(-3)).toEqual([0, 1]);
    expect(axisTicks(Number.NaN)).toEqual([0, 1]);
    expect(axisTicks(Number.POSITIVE_INFINITY)).toEqual([0, 1]);
    expect(axisTicks(2.2)).toEqual([0, 1, 2, 3]);
  });

  it('always gives distinct whole numbers in nice steps, from 0 to at least the maximum', () => {
    for (let max = 0; max <= 5000; max += max < 100 ? 1 : 37) {
      const ticks = axisTicks(max);
      const step = ticks[1] as number;
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(ticks.every((t, i) => Number.isInteger(t) && t === i * step)).toBe(true);
      expect(String(step)).toMatch(/^[125]0*$/);
    }
  });
});
