import { describe, expect, it } from 'vitest';
import { EVIDENCE_COLUMNS } from './evidence-columns';
import { evidenceValues } from './raw-evidence-store';
import type { EvidenceRecord } from './chain-records';

const base: EvidenceRecord = {
  id: 'e1',
  tenantId: 't1',
  seq: 7,
  prevHash: 'ab'.repeat(8),
  hash: 'cd'.repeat(32),
  createdAt: new Date('2026-11-22T01:02:03.456Z'),
  kind: 'pre',
  requestId: 'r1',
  traceId: 'tr1',
  callId: 'c1',
  w3cTraceparent: null,
  apiKeyId: 'k1',
  actorUserId: null,
  tool: 'orders.lookup',
  contractVersion: '1.0.0',
  contractHash: 'ef'.repeat(32),
  argsHash: '01'.repeat(32),
  idempotencyKey: null,
  arguments: null,
  decision: 'allow',
  valid: true,
  errors: '[]',
  warnings: '[]',
  durationMs: 1.25,
  payload: null,
  tenantKey: 3,
};

describe('evidenceValues', () => {
  it('binds every column in the order of the INSERT, with SQLite booleans, hashes as bytes and the batch timestamp in milliseconds', () => {
    // Not the tenant's id ('t1') nor the contract's hash: the row holds their keys (3, last; 5).
    expect(evidenceValues(base, Date.parse('2026-11-22T01:02:03.456Z'), 5)).toEqual([
      'e1',
      7,
      0,
      Buffer.from('ab'.repeat(8), 'hex'),
      Buffer.from('cd'.repeat(32), 'hex'),
      Date.parse('2026-11-22T01:02:03.456Z'),
      'pre',
      'r1',
      'tr1',
      'c1',
      null,
      'k1',
      null,
      'orders.lookup',
      '1.0.0',
      5,
      Buffer.from('01'.repeat(32), 'hex'),
      null,
      null,
      'allow',
      1,
      '[]',
      '[]',
      1.25,
      null,
      null,
      null,
      null,
      0,
      null,
      null,
      null,
      null,
      null,
      null,
      3,
    ]);
  });

  it('puts each field under its own column', () => {
    // Every field holds its own column name, so a value in the wrong place shows which.
    // The hashes hold hex of their own instead, stored as its bytes.
    const hashes: Record<string, string> = {
      prevHash: '11'.repeat(8),
      hash: '22'.repeat(32),
      argsHash: '44'.repeat(32),
    };
    const named = Object.fromEntries(EVIDENCE_COLUMNS.map((column) => [column, hashes[column] ?? column])) as unknown as EvidenceRecord;
    const values = evidenceValues({ ...named, valid: true, shadowDiffers: true }, 0, 99);
    expect(values).toEqual(
      EVIDENCE_COLUMNS.map((column) =>
        column === 'contractHashKey'
          ? 99
          : column === 'valid' || column === 'shadowDiffers'
            ? 1
            : column === 'createdAt'
              ? 0
              : hashes[column]
                ? Buffer.from(hashes[column], 'hex')
                : column,
      ),
    );
  });

  it('writes the policy fields when set, and a refused call as valid = 0', () => {
    const row: EvidenceRecord = {
      ...base,
      valid: false,
      decision: 'deny',
      policyId: 'pol',
      policyVersion: '2',
      policyRule: 'r',
      policy: '{"x":1}',
      shadowDiffers: true,
      executionMs: 12.5,
    };
    const values = evidenceValues(row, 0, 5);
    expect(values.slice(19, 21)).toEqual(['deny', 0]);
    expect(values.slice(24)).toEqual(['pol', '2', 'r', '{"x":1}', 1, 12.5, null, null, null, null, null, 3]);
  });

  it("writes the raw payload, its digest and an administrative record's details", () => {
    const row: EvidenceRecord = {
      ...base,
      arguments: '{"a":1}',
      payload: '{"context":{}}',
      payloadHash: 'd'.repeat(64),
      details: '{"role":"admin"}',
      mcpServer: 'github',
      duplicateKey: 'k'.repeat(32),
    };
    expect(evidenceValues(row, 0, 5).slice(-6)).toEqual([
      '{"context":{}}',
      'd'.repeat(64),
      '{"role":"admin"}',
      'github',
      'k'.repeat(32),
      3,
    ]);
  });

  it("stores requestId as '' when it is the record's own id, else in full", () => {
    const column = EVIDENCE_COLUMNS.indexOf('requestId');
    expect(evidenceValues({ ...base, id: 'r1', requestId: 'r1' }, 0, 5)[column]).toBe('');
    expect(evidenceValues(base, 0, 5)[column]).toBe('r1');
  });
});
