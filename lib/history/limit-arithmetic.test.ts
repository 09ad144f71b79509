import { describe, expect, it } from 'vitest';
import { exceeds, tidy } from './limit-arithmetic';

describe('limit arithmetic', () => {
  it('takes decimal sums at their limit as at it, and anything a step past it as past', () => {
    expect(0.1 + 0.2 > 0.3).toBe(true);
    expect(exceeds(0.1 + 0.2, 0.3)).toBe(false);
    expect(exceeds(0.1 + 0.2 + 0.01, 0.3)).toBe(true);
    expect(exceeds(1234567.89 + 0.01, 1234567.9)).toBe(false);
    expect(exceeds(1234567.89 + 0.02, 1234567.9)).toBe(true);
  });

  it('compares whole numbers exactly, however large', () => {
    expect(exceeds(1e12 + 1, 1e12)).toBe(true);
    expect(exceeds(1e12, 1e12)).toBe(false);
    expect(exceeds(4, 3)).toBe(true);
    expect(exceeds(2 ** 53 - 1, 2 ** 53 - 2)).toBe(true);
  });

  it('reads sums back as written without changing whole numbers', () => {
    expect(tidy(0.3 - 0.1)).toBe(0.2);
    expect(tidy(0.1 + 0.2)).toBe(0.3);
    expect(tidy(123456789012345)).toBe(123456789012345);
  });
});
