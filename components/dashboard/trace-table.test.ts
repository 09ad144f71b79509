import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TraceSummary } from '@/lib/traces/trace-summary';
import { TraceTable } from './trace-table';

const row = (patch: Partial<TraceSummary>): TraceSummary => ({
  trace_id: 'a'.repeat(32),
  call_id: 'call-1',
  seq: 1,
  kind: 'pre',
  started_at: '2026-12-07T10:00:00.000Z',
  tool: 'orders.lookup',
  decision: 'allow',
  api_key_id: 'k1',
  api_key_name: 'support agent',
  contract_version: '1.3.0',
  policy: null,
  shadow_differs: false,
  records: 1,
  last_kind: 'pre',
  last_decision: 'allow',
  duration_ms: 1,
  checks_ms: 1,
  execution_ms: null,
  ...patch,
});

const outcome = (trace: TraceSummary) => {
  const html = renderToStaticMarkup(createElement(TraceTable, { traces: [trace], shadow: false }));
  const cells = [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => (m[1] as string).replace(/<[^>]+>/g, ''));
  return cells[4];
};

describe("the traces table's outcome column", () => {
  it('says an allowed validate/pre is waiting for its validate/post', () => {
    expect(outcome(row({}))).toBe('no validate/post yet');
  });

  it('does not say a validate/post is still to come of a call checked only by validate/post', () => {
    // Such a trace read "allow post · no validate/post yet".
    expect(outcome(row({ kind: 'post', last_kind: 'post' }))).toBe('validate/post only');
  });

  it('shows the last record of a call with several', () => {
    expect(outcome(row({ records: 2, last_kind: 'post', last_decision: 'deny' }))).toMatch(/^post deny · 2 records$/);
  });
});
