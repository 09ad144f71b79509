import { describe, expect, it } from 'vitest';
import { clampPercent, DEFAULT_PANE_SIZES, readPaneSizes } from './pane-sizes';

describe('readPaneSizes', () => {
  it('defaults when nothing or something malformed is stored', () => {
    expect(readPaneSizes(null)).toEqual(DEFAULT_PANE_SIZES);
    expect(readPaneSizes('not json')).toEqual(DEFAULT_PANE_SIZES);
    expect(readPaneSizes('[1,2]')).toEqual(DEFAULT_PANE_SIZES);
    expect(readPaneSizes('{"side":"wide","stack":null}')).toEqual(DEFAULT_PANE_SIZES);
  });

  it('keeps what was stored, clamped to each pane’s limits', () => {
    expect(readPaneSizes('{"side":50,"stack":60,"prompt":40}')).toEqual({ side: 50, stack: 60, prompt: 40 });
    expect(readPaneSizes('{"side":5,"prompt":99}')).toEqual({ ...DEFAULT_PANE_SIZES, side: 30, prompt: 80 });
  });

  it('clampPercent refuses non-numbers', () => {
    expect(clampPercent(Number.NaN, 10, 90)).toBe(10);
    expect(clampPercent(120, 10, 90)).toBe(90);
  });
});
