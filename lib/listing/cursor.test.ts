import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { decodeCursor, encodeCursor } from './cursor';

describe('cursors', () => {
  it('round-trip their key', () => {
    expect(decodeCursor(encodeCursor([42]), ['number'])).toEqual([42]);
    expect(decodeCursor(encodeCursor(['2026-11-22T00:00:00.000Z', 'id-1']), ['string', 'string'])).toEqual([
      '2026-11-22T00:00:00.000Z',
      'id-1',
    ]);
  });

  it('refuse anything else with a 400', () => {
    for (const bad of [
      '',
      'abc',
      encodeCursor(['x']),
      encodeCursor([1, 2]),
      encodeCursor([1.5]),
      Buffer.from('{"a":1}').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad, ['number'])).toThrow(AppError);
    }
    try {
      decodeCursor('abc', ['number']);
    } catch (error) {
      expect((error as AppError).status).toBe(400);
    }
  });
});
