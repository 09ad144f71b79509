import { describe, expect, it } from 'vitest';
import { CounterRows } from './counter-rows';

const row = (bucket: number, count = 1) => ({ bucket, count, total: count * 10, lastAt: bucket * 1000 });

describe('CounterRows.load', () => {
  it('keeps rows oldest first whatever order they come in, a bucket once, and copies them', () => {
    const rows = new CounterRows();
    const first = row(60);
    rows.load('s', 'k', [first, row(120), row(180)]);
    rows.load('s', 'k', [row(0), row(120, 5), row(240)]);
    expect(rows.get('s', 'k').map((r) => [r.bucket, r.count])).toEqual([
      [0, 1],
      [60, 1],
      [120, 5],
      [180, 1],
      [240, 1],
    ]);
    rows.add('s', 'k', 60, 2, 20, 61_000);
    expect(first.count).toBe(1);
    expect(rows.sums('s', 'k', 60)).toEqual({ count: 10, total: 100, lastAt: 240_000 });
    expect(rows.get('s', 'other')).toEqual([]);
  });
});
