import { describe, expect, it } from 'vitest';
import { bucketKeys, defaultBucketSize } from './get-violation-stats';

describe('bucketKeys', () => {
  it('lists every hour or day of the range, empty ones included', () => {
    expect(bucketKeys(new Date('2026-11-22T09:30:00Z'), new Date('2026-11-22T12:00:00Z'), 'hour')).toEqual([
      '2026-11-22T09',
      '2026-11-22T10',
      '2026-11-22T11',
    ]);
    expect(bucketKeys(new Date('2026-11-20T23:00:00Z'), new Date('2026-11-22T00:00:01Z'), 'day')).toEqual([
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
  });
});

describe('defaultBucketSize', () => {
  const until = new Date('2026-11-22T12:00:00Z');
  const before = (hours: number) => new Date(until.getTime() - hours * 3_600_000);

  it('draws up to two days by the hour and more than eight by the day', () => {
    expect(defaultBucketSize(before(1), until, [])).toBe('hour');
    expect(defaultBucketSize(before(48), until, ['2026-11-21T01', '2026-11-22T09'])).toBe('hour');
    expect(defaultBucketSize(before(9 * 24), until, ['2026-11-22T09'])).toBe('day');
  });

  it('draws a week by the day when its violations fall on several days, by the hour when on one', () => {
    expect(defaultBucketSize(before(7 * 24), until, ['2026-11-18T10', '2026-11-22T09'])).toBe('day');
    expect(defaultBucketSize(before(7 * 24), until, ['2026-11-22T01', '2026-11-22T09', '2026-11-22T11'])).toBe('hour');
    expect(defaultBucketSize(before(7 * 24), until, [])).toBe('hour');
  });
});
