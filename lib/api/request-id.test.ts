import { describe, expect, it } from 'vitest';
import { requestIdFrom, requestIdsFrom } from './request-id';

const ULID = /^[0-9a-hjkmnp-tv-z]{26}$/;

describe('requestIdFrom', () => {
  it("keeps the caller's x-request-id when it is a plain token of at most 128 characters", () => {
    expect(requestIdFrom('req-1.a:b_C')).toBe('req-1.a:b_C');
    expect(requestIdFrom('x'.repeat(128))).toBe('x'.repeat(128));
  });

  it('makes a new time-ordered id (26 characters) for none, an empty one, a too long one or one with other characters', () => {
    for (const incoming of [null, undefined, '', 'x'.repeat(129), 'a b', 'a\nb', '<script>', 'ü', 'a/b']) {
      expect(requestIdFrom(incoming)).toMatch(ULID);
    }
  });

  it('makes a different id each time, later ones sorting after earlier ones', async () => {
    const first = requestIdFrom(null);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = requestIdFrom(null);
    expect(second).not.toBe(first);
    expect(second > first).toBe(true);
  });
});

describe('requestIdsFrom', () => {
  it("gives a request id it made to the request's first record, never the caller's", () => {
    const made = requestIdsFrom(null);
    expect(made.firstRecordId?.take()).toBe(made.requestId);
    expect(requestIdsFrom('not a token').firstRecordId).toBeDefined();
    expect(requestIdsFrom('req-1').firstRecordId).toBeUndefined();
    expect(requestIdsFrom(made.requestId)).toEqual({ requestId: made.requestId, firstRecordId: undefined });
  });
});
