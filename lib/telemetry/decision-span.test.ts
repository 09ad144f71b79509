import { describe, expect, it } from 'vitest';
import type { CommittedEvidence } from '../evidence/evidence-observers';
import type { EvidenceInput } from '../evidence/evidence-input';
import { decisionSpan, parseTraceparent } from './decision-span';
import { traceExportEnabled } from './trace-export';

const input: EvidenceInput = {
  tenantId: 'tenant-1',
  kind: 'pre',
  requestId: 'req-1',
  traceId: 'a'.repeat(32),
  callId: 'call-1',
  tool: 'orders.lookup',
  argsHash: 'f'.repeat(64),
  arguments: '{"order_id":"ord_1"}',
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 4,
};

const committed = (overrides: Partial<EvidenceInput> = {}, extra: unknown = undefined): CommittedEvidence => ({
  input: { ...input, ...overrides },
  recorded: { id: 'ev-1', seq: 7, hash: 'h' },
  commitMs: 2,
  extra,
});

describe('decisionSpan', () => {
  it('spans the decision and its commit, ending at the commit', () => {
    const span = decisionSpan(committed(), { arguments: false, endMs: 1_000_000 });
    expect(span).toMatchObject({
      name: 'execute_tool orders.lookup',
      startMs: 1_000_000 - 6,
      endMs: 1_000_000,
      refused: false,
      errorType: null,
    });
    expect(span?.attributes['toolgate.commit_ms']).toBe(2);
  });

  it('exports every call kind and no administrative one', () => {
    for (const kind of ['pre', 'post', 'pipeline', 'manifest', 'approval_decision'] as const)
      expect(decisionSpan(committed({ kind }), { arguments: false, endMs: 1 })).not.toBeNull();
    for (const kind of ['membership', 'settings', 'retention_purge', 'mcp_drift'] as const)
      expect(decisionSpan(committed({ kind }), { arguments: false, endMs: 1 })).toBeNull();
  });

  it('marks an approver’s denial as a refusal, its type the decision when no code names it', () => {
    const span = decisionSpan(committed({ kind: 'approval_decision', decision: 'denied' }, { id: 'appr-1' }), {
      arguments: false,
      endMs: 1,
    });
    expect(span).toMatchObject({ refused: true, errorType: 'denied' });
    expect(span?.attributes).toMatchObject({ 'error.type': 'denied', 'toolgate.approval.id': 'appr-1' });
    expect(span?.attributes['toolgate.error.codes']).toBeUndefined();
  });

  it('names an approval only for the records that create or decide one', () => {
    expect(decisionSpan(committed({}, { id: 'appr-2' }), { arguments: false, endMs: 1 })?.attributes['toolgate.approval.id']).toBe(
      'appr-2',
    );
    expect(decisionSpan(committed({}, null), { arguments: false, endMs: 1 })?.attributes['toolgate.approval.id']).toBeUndefined();
    expect(
      decisionSpan(committed({ kind: 'post' }, { id: 'x' }), { arguments: false, endMs: 1 })?.attributes['toolgate.approval.id'],
    ).toBeUndefined();
  });

  it('carries arguments only when asked and the record holds them', () => {
    expect(decisionSpan(committed(), { arguments: true, endMs: 1 })?.attributes['gen_ai.tool.call.arguments']).toBe('{"order_id":"ord_1"}');
    expect(decisionSpan(committed(), { arguments: false, endMs: 1 })?.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(
      decisionSpan(committed({ arguments: null }), { arguments: true, endMs: 1 })?.attributes['gen_ai.tool.call.arguments'],
    ).toBeUndefined();
  });

  it('takes the caller’s trace and span from its traceparent, with its sampled flag', () => {
    const span = decisionSpan(committed({ w3cTraceparent: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-00` }), { arguments: false, endMs: 1 });
    expect(span).toMatchObject({ traceId: 'b'.repeat(32), parent: { spanId: 'c'.repeat(16), sampled: false } });
    expect(decisionSpan(committed(), { arguments: false, endMs: 1 })).toMatchObject({ traceId: 'a'.repeat(32), parent: null });
  });
});

describe('parseTraceparent', () => {
  it.each([
    [`00-${'b'.repeat(32)}-${'c'.repeat(16)}-01`, true],
    [`ff-${'b'.repeat(32)}-${'c'.repeat(16)}-01`, false],
    [`00-${'0'.repeat(32)}-${'c'.repeat(16)}-01`, false],
    [`00-${'b'.repeat(32)}-${'0'.repeat(16)}-01`, false],
    [`00-${'b'.repeat(31)}-${'c'.repeat(16)}-01`, false],
    [null, false],
  ])('%s is valid: %s', (value, valid) => {
    expect(parseTraceparent(value) !== null).toBe(valid);
  });
});

describe('traceExportEnabled', () => {
  const off = {
    OTEL_SDK_DISABLED: false,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    OTEL_TRACES_EXPORTER: undefined,
  };
  it.each([
    ['nothing set', {}, false],
    ['an endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    ['a traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    ['an endpoint, SDK disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: true }, false],
    ['an endpoint, exporter none', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [
      'an endpoint, exporters console and otlp',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'console, OTLP' },
      true,
    ],
  ])('%s: %s', (_label, settings, enabled) => {
    expect(traceExportEnabled({ ...off, ...settings })).toBe(enabled);
  });
});
