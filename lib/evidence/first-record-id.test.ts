import { describe, expect, it } from 'vitest';
import { chainRecords } from './chain-records';
import type { EvidenceInput } from './evidence-input';
import { FirstRecordId, newRequestId } from './first-record-id';

describe('FirstRecordId', () => {
  it("hands out the request's id once, then nothing (a new id for every later record)", () => {
    const first = new FirstRecordId('01request');
    expect(first.take()).toBe('01request');
    expect(first.take()).toBeUndefined();
    const made = newRequestId();
    expect(made.firstRecordId.take()).toBe(made.requestId);
  });
});

const input = (recordId: string | undefined, requestId = 'req-1'): EvidenceInput => ({
  tenantId: 't1',
  kind: 'pre',
  requestId,
  recordId,
  traceId: 'tr',
  callId: 'c',
  tool: 'orders.lookup',
  argsHash: '0'.repeat(64),
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 1,
});

describe('chainRecords with a record id', () => {
  it('uses it, and makes a new one for a second input of the batch that brings the same', () => {
    const { rows } = chainRecords([input('req-1'), input('req-1'), input(undefined)], new Map(), new Date());
    expect(rows[0]?.id).toBe('req-1');
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    // In memory, every record keeps its real request id.
    expect(rows.map((r) => r.requestId)).toEqual(['req-1', 'req-1', 'req-1']);
  });
});
