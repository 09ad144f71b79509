import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { decodeCursor, encodeCursor } from './cursor';
import { bucketKeys } from './violation-stats';

describe('cursors', () => {
  it('round-trip their key', () => {
    expect(decodeCursor(encodeCursor([42]), ['number'])).toEqual([42]);
    expect(decodeCursor(encodeCursor(['2026-11-22T00:00:00.000Z', 'id-1']), ['string', 'string'])).toEqual(['2026-11-22T00:00:00.000Z', 'id-1']);
  });

  it('refuse anything else with a 400', () => {
    for (const bad of ['', 'abc', encodeCursor(['x']), encodeCursor([1, 2]), encodeCursor([1.5]), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(() => decodeCursor(bad, ['number'])).toThrow(AppError);
    }
    try {
      decodeCursor('abc', ['number']);
    } catch (error) {
      expect((error as AppError).status).toBe(400);
    }
  });
});

describe('bucketKeys', () => {
  it('lists every hour or day of the range, empty ones included', () => {
    expect(bucketKeys(new Date('2026-11-22T09:30:00Z'), new Date('2026-11-22T12:00:00Z'), 'hour')).toEqual(['2026-11-22T09', '2026-11-22T10', '2026-11-22T11']);
    expect(bucketKeys(new Date('2026-11-20T23:00:00Z'), new Date('2026-11-22T00:00:01Z'), 'day')).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
  });
});
