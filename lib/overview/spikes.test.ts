import { describe, expect, it } from 'vitest';
import { describeSpike, isSpike } from './spikes';

describe('isSpike', () => {
  it('needs 5 calls or more and 3 times the same hour yesterday or more', () => {
    expect(isSpike(5, 0)).toBe(true);
    expect(isSpike(6, 2)).toBe(true);
    expect(isSpike(30, 10)).toBe(true);
    expect(isSpike(4, 0)).toBe(false);
    expect(isSpike(1, 0)).toBe(false);
    expect(isSpike(29, 10)).toBe(false);
    expect(isSpike(0, 0)).toBe(false);
  });
});

describe('describeSpike', () => {
  it('says it in words, with the factor and both counts', () => {
    expect(describeSpike(7, 0)).toBe('Spike: 7 in the last hour, none in the same hour yesterday');
    expect(describeSpike(10, 3)).toBe('Spike: 3.3× the same hour yesterday (10 against 3)');
    expect(describeSpike(1500, 100)).toBe('Spike: 15× the same hour yesterday (1,500 against 100)');
  });
});
