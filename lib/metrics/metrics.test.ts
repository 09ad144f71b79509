import { describe, expect, it } from 'vitest';
import type { CommittedEvidence } from '../evidence/evidence-observers';
import type { EvidenceInput } from '../evidence/evidence-input';
import { BoundedLabel } from './bounded-label';
import { countDecision } from './count-decision';
import { expositionText } from './exposition-text';
import { TOOL_LABEL_LIMIT, toolgateMetrics } from './metrics-registry';
import { parseExposition, sampleValue } from './testing/parse-exposition';

function committed(input: Partial<EvidenceInput>, commitMs = 3): CommittedEvidence {
  return {
    input: {
      tenantId: 'tenant-1',
      kind: 'pre',
      requestId: 'r',
      traceId: 't',
      callId: 'c',
      tool: 'orders.lookup',
      argsHash: 'h',
      contractVersion: '1.0.0',
      decision: 'allow',
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 2,
      ...input,
    },
    recorded: { id: 'e', seq: 1, hash: 'x' },
    commitMs,
    extra: undefined,
  };
}

/** The decision counts of one tenant as `kind tool decision code → count`. */
async function decisions(tenant: string): Promise<Record<string, number>> {
  const { values } = await toolgateMetrics().decisions.get();
  const out: Record<string, number> = {};
  for (const { labels, value } of values) {
    if (labels.tenant === tenant) out[`${labels.kind} ${labels.tool} ${labels.decision} ${labels.code}`] = value;
  }
  return out;
}

describe('BoundedLabel', () => {
  it('keeps the first values and names every later one `other`', () => {
    const label = new BoundedLabel(2);
    expect(['a.x', 'b.x', 'a.x', 'c.x', 'b.x', 'd.x'].map((v) => label.value(v))).toEqual(['a.x', 'b.x', 'a.x', 'other', 'b.x', 'other']);
  });
});

describe('countDecision', () => {
  it('counts calls by kind, tool, decision and first code, and approval decisions without a latency', async () => {
    countDecision(committed({ tenantId: 'd1' }));
    countDecision(committed({ tenantId: 'd1' }));
    countDecision(
      committed({
        tenantId: 'd1',
        decision: 'deny',
        errors: [
          { code: 'AXAG_PATTERN_MISMATCH', type: 'input', message: '', path: '$.a' },
          { code: 'AXAG_RANGE', type: 'input', message: '', path: '$.b' },
        ],
      }),
    );
    countDecision(committed({ tenantId: 'd1', kind: 'approval_decision', decision: 'approved', durationMs: 0 }));
    expect(await decisions('d1')).toEqual({
      'pre orders.lookup allow none': 2,
      'pre orders.lookup deny AXAG_PATTERN_MISMATCH': 1,
      'approval_decision orders.lookup approved none': 1,
    });
    const durations = (await toolgateMetrics().decisionSeconds.get()).values.filter(
      (v) => v.labels.tenant === 'd1' && v.metricName === 'toolgate_decision_duration_seconds_count',
    );
    expect(durations.map((v) => [v.labels.kind, v.labels.decision, v.value])).toEqual([
      ['pre', 'allow', 2],
      ['pre', 'deny', 1],
    ]);
    const commits = (await toolgateMetrics().commitSeconds.get()).values.find(
      (v) => v.labels.tenant === 'd1' && v.metricName === 'toolgate_evidence_commit_duration_seconds_sum',
    );
    expect(commits?.value).toBeCloseTo(0.012);
  });

  it('gives tools no contract vouched for one shared label, and leaves administrative records out of the decisions', async () => {
    countDecision(committed({ tenantId: 'd2', tool: 'made.up_name', contractVersion: null, decision: 'deny' }));
    countDecision(committed({ tenantId: 'd2', tool: 'another.made_up', contractVersion: null, decision: 'deny' }));
    countDecision(committed({ tenantId: 'd2', kind: 'pipeline', tool: 'pipeline:core', contractVersion: null }));
    countDecision(committed({ tenantId: 'd2', kind: 'settings', tool: 'toolgate.settings', decision: 'allow' }));
    expect(await decisions('d2')).toEqual({ 'pre unresolved deny none': 2, 'pipeline pipeline:core allow none': 1 });
    const commits = (await toolgateMetrics().commitSeconds.get()).values.find(
      (v) => v.labels.tenant === 'd2' && v.metricName === 'toolgate_evidence_commit_duration_seconds_count',
    );
    expect(commits?.value).toBe(4);
  });

  it(`names at most ${TOOL_LABEL_LIMIT} distinct tools; later ones are counted as other`, async () => {
    for (let i = 0; i < TOOL_LABEL_LIMIT + 5; i++) countDecision(committed({ tenantId: 'd3', tool: `many.tool_${i}` }));
    const counted = await decisions('d3');
    // Earlier tests in this file already took two names (orders.lookup, pipeline:core).
    expect(Object.keys(counted)).toHaveLength(TOOL_LABEL_LIMIT - 2 + 1);
    expect(counted['pre other allow none']).toBe(7);
    expect(counted['pre many.tool_0 allow none']).toBe(1);
  });
});

describe('expositionText', () => {
  it('writes what a Prometheus parser reads back, escaping help and label values', () => {
    const text = expositionText([
      {
        name: 'toolgate_example_total',
        help: 'A help text\nwith a newline and a \\ backslash',
        type: 'counter',
        values: [
          { value: 3, labels: { tool: 'a "quoted"\nname\\', code: undefined } },
          { value: 1, labels: {} },
        ],
      },
      {
        name: 'toolgate_example_seconds',
        help: 'h',
        type: 'histogram',
        values: [
          { value: 2, labels: { le: '+Inf' }, metricName: 'toolgate_example_seconds_bucket' },
          { value: Infinity, labels: {}, metricName: 'toolgate_example_seconds_sum' },
        ],
      },
    ]);
    expect(text).toContain('# HELP toolgate_example_total A help text\\nwith a newline and a \\\\ backslash\n');
    expect(text).toContain('toolgate_example_total{tool="a \\"quoted\\"\\nname\\\\"} 3\n');
    const samples = parseExposition(text);
    expect(sampleValue(samples, 'toolgate_example_total', { tool: 'a "quoted"\nname\\' })).toBe(3);
    expect(samples.filter((s) => s.name === 'toolgate_example_total')).toHaveLength(2);
    expect(sampleValue(samples, 'toolgate_example_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(sampleValue(samples, 'toolgate_example_seconds_sum')).toBe(Infinity);
    expect(text.endsWith('\n')).toBe(true);
  });
});
