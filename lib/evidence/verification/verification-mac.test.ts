import { describe, expect, it } from 'vitest';
import { checkpointMac, checkpointMacHolds, cursorMac, cursorMacHolds } from './verification-mac';

const SECRET = 'a-secret-that-is-long-enough-0123456789';
const checkpoint = {
  tenantId: 'tenant-a',
  seq: 42,
  hash: 'a'.repeat(64),
  records: 42,
  verifiedAt: new Date('2026-11-27T00:00:00.000Z'),
  source: 'request',
};
const cursor = {
  runId: 'run-1',
  tenantId: 'tenant-a',
  throughSeq: 100,
  throughHash: 'b'.repeat(64),
  cursorSeq: 40,
  cursorHash: 'c'.repeat(64),
  checked: 40,
};

describe('checkpoint MAC', () => {
  it('holds for the fields it was made for', () => {
    expect(checkpointMacHolds(SECRET, { ...checkpoint, mac: checkpointMac(SECRET, checkpoint) })).toBe(true);
  });

  it.each([
    ['tenantId', { tenantId: 'tenant-b' }],
    ['seq', { seq: 43 }],
    ['hash', { hash: 'd'.repeat(64) }],
    ['records', { records: 41 }],
    ['verifiedAt', { verifiedAt: new Date('2026-11-27T00:00:00.001Z') }],
    ['source', { source: 'run' }],
  ])('fails when %s changes', (_field, change) => {
    const mac = checkpointMac(SECRET, checkpoint);
    expect(checkpointMacHolds(SECRET, { ...checkpoint, ...change, mac })).toBe(false);
  });

  it('fails under another instance secret, and for a MAC that is not one', () => {
    expect(checkpointMacHolds(`${SECRET}x`, { ...checkpoint, mac: checkpointMac(SECRET, checkpoint) })).toBe(false);
    expect(checkpointMacHolds(SECRET, { ...checkpoint, mac: '' })).toBe(false);
    expect(checkpointMacHolds(SECRET, { ...checkpoint, mac: 'f'.repeat(64) })).toBe(false);
  });
});

describe('run cursor MAC', () => {
  it('holds for its cursor and fails for a moved one', () => {
    const mac = cursorMac(SECRET, cursor);
    expect(cursorMacHolds(SECRET, { ...cursor, cursorMac: mac })).toBe(true);
    expect(cursorMacHolds(SECRET, { ...cursor, cursorSeq: 90, cursorMac: mac })).toBe(false);
    expect(cursorMacHolds(SECRET, { ...cursor, throughSeq: 50, cursorMac: mac })).toBe(false);
    expect(cursorMacHolds(SECRET, { ...cursor, checked: 90, cursorMac: mac })).toBe(false);
  });
});
