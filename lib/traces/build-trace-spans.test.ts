import { describe, expect, it } from 'vitest';
import { buildTraceSpans, type SpanRecord } from './build-trace-spans';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
const record = (over: Partial<SpanRecord> & Pick<SpanRecord, 'seq' | 'kind' | 'createdAt'>): SpanRecord => ({
  durationMs: 2,
  executionMs: null,
  decision: 'allow',
  policyMs: null,
  policyLabel: null,
  ...over,
});

describe('buildTraceSpans', () => {
  it('lays out pre -> approval wait -> decision -> pre -> execution -> post on one axis', () => {
    const { spans, startedAt, durationMs } = buildTraceSpans(
      [
        record({
          seq: 1,
          kind: 'pre',
          createdAt: at(10),
          durationMs: 4,
          decision: 'require_approval',
          policyMs: 1,
          policyLabel: 'guard@1.0.0 rule r1',
        }),
        record({ seq: 2, kind: 'approval_decision', createdAt: at(60_010), durationMs: 0, decision: 'approved' }),
        record({ seq: 3, kind: 'pre', createdAt: at(61_000), durationMs: 2 }),
        record({ seq: 4, kind: 'post', createdAt: at(62_500), durationMs: 1, executionMs: 1200 }),
      ],
      [{ id: 'a1', status: 'approved', createdAt: at(10), decidedAt: at(60_010), expiresAt: at(3_600_000) }],
      at(100_000),
    );
    expect(startedAt?.toISOString()).toBe(at(6).toISOString());
    expect(durationMs).toBe(62_500 - 6);
    expect(spans.map((s) => [s.kind, s.start_ms, s.duration_ms, s.seq ?? s.approval_id])).toEqual([
      ['validation', 0, 3, 1],
      ['policy', 3, 1, 1],
      ['approval_wait', 4, 60_000, 'a1'],
      ['approval_decision', 60_004, 0, 2],
      ['validation', 60_992, 2, 3],
      ['execution', 61_293, 1200, 4],
      ['post_validation', 62_493, 1, 4],
    ]);
    expect(spans[1]?.label).toBe('policy: guard@1.0.0 rule r1');
    expect(spans[2]?.outcome).toBe('approved');
  });

  it('never draws the wait before the check that asked for it (the approval row is written before the record is timed)', () => {
    const { spans } = buildTraceSpans(
      [record({ seq: 1, kind: 'pre', createdAt: at(10), durationMs: 4, decision: 'require_approval' })],
      [{ id: 'a1', status: 'pending', createdAt: at(5), decidedAt: null, expiresAt: at(60_000) }],
      at(1_000),
    );
    expect(spans.map((s) => [s.kind, s.start_ms])).toEqual([
      ['validation', 0],
      ['approval_wait', 0],
    ]);
  });

  it('shows a pending approval waiting until now, and one past its deadline as expired', () => {
    const pre = record({ seq: 1, kind: 'pre', createdAt: at(0), durationMs: 1, decision: 'require_approval' });
    const pending = buildTraceSpans(
      [pre],
      [{ id: 'p', status: 'pending', createdAt: at(0), decidedAt: null, expiresAt: at(60_000) }],
      at(30_000),
    );
    expect(pending.spans.find((s) => s.kind === 'approval_wait')).toMatchObject({ duration_ms: 30_000, outcome: 'pending' });
    const late = buildTraceSpans(
      [pre],
      [{ id: 'p', status: 'pending', createdAt: at(0), decidedAt: null, expiresAt: at(60_000) }],
      at(90_000),
    );
    expect(late.spans.find((s) => s.kind === 'approval_wait')).toMatchObject({
      duration_ms: 60_000,
      outcome: 'expired',
      label: 'approval wait (expired)',
    });
  });

  it('keeps the policy share within the record, and has no execution span when none was reported', () => {
    const { spans } = buildTraceSpans(
      [
        record({ seq: 1, kind: 'pre', createdAt: at(5), durationMs: 2, policyMs: 9 }),
        record({ seq: 2, kind: 'post', createdAt: at(50), durationMs: 1 }),
      ],
      [],
    );
    expect(spans.find((s) => s.kind === 'policy')?.duration_ms).toBe(2);
    expect(spans.find((s) => s.kind === 'validation')?.duration_ms).toBe(0);
    expect(spans.some((s) => s.kind === 'execution')).toBe(false);
  });

  it('starts a reported run time longer than the gap at the end of the check before it', () => {
    const { spans } = buildTraceSpans(
      [
        record({ seq: 1, kind: 'pre', createdAt: at(100), durationMs: 2 }),
        record({ seq: 2, kind: 'post', createdAt: at(150), durationMs: 1, executionMs: 5000 }),
      ],
      [],
    );
    expect(spans.map((s) => [s.kind, s.start_ms, s.duration_ms])).toEqual([
      ['validation', 0, 2],
      ['execution', 2, 5000],
      ['post_validation', 51, 1],
    ]);
  });

  it('returns nothing for nothing', () => {
    expect(buildTraceSpans([], [])).toEqual({ spans: [], startedAt: null, durationMs: 0 });
  });
});
