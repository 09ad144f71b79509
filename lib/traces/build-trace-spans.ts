/**
 * A trace's timeline, built from its evidence records and approvals: what Toolgate spent
 * checking (validation, policy), what people spent deciding (approval wait), and what the tool
 * itself spent running (as validate/post reported it). Records carry their commit time and how
 * long the check took, so a check spans [createdAt - durationMs, createdAt].
 */

export type SpanKind = 'validation' | 'policy' | 'approval_wait' | 'approval_decision' | 'execution' | 'post_validation' | 'check';

export interface TraceSpan {
  kind: SpanKind;
  label: string;
  /** Milliseconds from the start of the trace. */
  start_ms: number;
  duration_ms: number;
  /** The evidence record the span comes from, if any. */
  seq: number | null;
  approval_id: string | null;
  /** The record's decision, or the approval's status. */
  outcome: string | null;
}

export interface SpanRecord {
  seq: number;
  kind: string;
  createdAt: Date;
  durationMs: number;
  executionMs: number | null;
  decision: string;
  /** The policy layer's share of durationMs (pre records with a policy decision). */
  policyMs: number | null;
  policyLabel: string | null;
}

export interface SpanApproval {
  id: string;
  status: string;
  createdAt: Date;
  decidedAt: Date | null;
  expiresAt: Date;
}

interface AbsoluteSpan extends Omit<TraceSpan, 'start_ms'> {
  start: number;
}

export function buildTraceSpans(
  records: SpanRecord[],
  approvals: SpanApproval[],
  now: Date = new Date(),
): { spans: TraceSpan[]; startedAt: Date | null; durationMs: number } {
  const spans: AbsoluteSpan[] = [];
  let previousEnd = -Infinity;
  const preChecks: { start: number; end: number }[] = [];
  for (const record of [...records].sort((a, b) => a.seq - b.seq)) {
    const end = record.createdAt.getTime();
    const duration = Math.max(0, record.durationMs);
    const start = end - duration;
    const base = { seq: record.seq, approval_id: null, outcome: record.decision };
    if (record.kind === 'pre') {
      preChecks.push({ start, end });
      const policyMs = record.policyMs === null ? null : Math.min(Math.max(0, record.policyMs), duration);
      spans.push({ ...base, kind: 'validation', label: 'validate/pre: contract checks', start, duration_ms: duration - (policyMs ?? 0) });
      if (policyMs !== null)
        spans.push({
          ...base,
          kind: 'policy',
          label: record.policyLabel ? `policy: ${record.policyLabel}` : 'policy',
          start: end - policyMs,
          duration_ms: policyMs,
        });
    } else if (record.kind === 'post') {
      // The agent's clock and ours differ, and the tool cannot have started before the previous
      // check allowed it: a reported time longer than the gap starts at that check's end.
      if (record.executionMs !== null)
        spans.push({
          ...base,
          kind: 'execution',
          label: 'tool execution (reported)',
          start: Math.max(start - record.executionMs, previousEnd),
          duration_ms: record.executionMs,
          outcome: null,
        });
      spans.push({ ...base, kind: 'post_validation', label: 'validate/post: result checks', start, duration_ms: duration });
    } else if (record.kind === 'approval_decision') {
      spans.push({ ...base, kind: 'approval_decision', label: `approval ${record.decision}`, start: end, duration_ms: 0 });
    } else {
      spans.push({ ...base, kind: 'check', label: `${record.kind} check`, start, duration_ms: duration });
    }
    previousEnd = end;
  }
  for (const approval of approvals) {
    // The approval is created inside the commit of the validate/pre that asked for it, while
    // that record's time is taken at commit and its start derived from it: never draw the wait
    // before the check that requested it.
    const created = approval.createdAt.getTime();
    const requester = preChecks.find((check) => check.end >= created);
    const start = requester ? Math.max(created, requester.start) : created;
    // Undecided: still waiting (until now, at most the deadline) or ran out at the deadline.
    const end =
      approval.decidedAt?.getTime() ??
      (approval.status === 'pending' ? Math.min(now.getTime(), approval.expiresAt.getTime()) : approval.expiresAt.getTime());
    const effective = approval.status === 'pending' && approval.expiresAt.getTime() <= now.getTime() ? 'expired' : approval.status;
    spans.push({
      kind: 'approval_wait',
      label: `approval wait (${effective})`,
      start,
      duration_ms: Math.max(0, end - start),
      seq: null,
      approval_id: approval.id,
      outcome: effective,
    });
  }
  if (spans.length === 0) return { spans: [], startedAt: null, durationMs: 0 };
  spans.sort((a, b) => a.start - b.start || (a.seq ?? Infinity) - (b.seq ?? Infinity));
  const t0 = Math.min(...spans.map((s) => s.start));
  const t1 = Math.max(...spans.map((s) => s.start + s.duration_ms));
  return {
    spans: spans.map(({ start, ...span }) => ({ ...span, start_ms: round(start - t0), duration_ms: round(span.duration_ms) })),
    startedAt: new Date(t0),
    durationMs: round(t1 - t0),
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
