import { describe, expect, it } from 'vitest';
import { fromStoredEvidence, toStoredEvidence } from './stored-hashes';
import { requestIdOf, storedRequestId } from './stored-request-id';

describe('the stored requestId', () => {
  it("is '' for a record whose request id is its id, and reads back as the id", () => {
    expect(storedRequestId({ id: 'a', requestId: 'a' })).toBe('');
    expect(storedRequestId({ id: 'a', requestId: 'b' })).toBe('b');
    expect(requestIdOf({ id: 'a', requestId: '' })).toBe('a');
    expect(requestIdOf({ id: 'a', requestId: 'b' })).toBe('b');
  });

  it('round-trips through the Prisma form, and refuses to read a stored requestId without its id', () => {
    const row = { id: 'a', requestId: 'a', hash: 'ab'.repeat(32) };
    const stored = toStoredEvidence(row);
    expect(stored.requestId).toBe('');
    expect(fromStoredEvidence(stored)).toEqual(row);
    expect(() => fromStoredEvidence({ requestId: '', hash: new Uint8Array(32) })).toThrow(TypeError);
  });
});
