import { describe, expect, it } from 'vitest';
import { bucketKeys } from './get-violation-stats';

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
