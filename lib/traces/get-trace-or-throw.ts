import { db } from '../db';
import { NotFoundError } from '../errors';
import type { PolicyEvidence } from '../policies/policy-evidence';
import { apiKeyNames } from '../auth/api-key-names';
import { parsePolicyEvidence } from '../policies/parse-policy-evidence';
import { parseIssues, type IssueView } from '../evidence/parse-issues';
import { buildTraceSpans, type TraceSpan } from './build-trace-spans';
import { num, sql, type Sql } from '../db/sql';
import { actorLabels } from '../tenants/actor-labels';
import { actorsIn } from '../tenants/actor-text';
import { traceOutcome, type TraceOutcome } from './trace-outcome';
import { retainedView, type RetainedView } from '../retention/retained-view';
import { hashedRecordOf, WITH_CONTRACT_HASH } from '../evidence/stored-record';
import { byTenantKey, tenantEvidence } from '../evidence/tenant-key';
import { argumentsForPeople } from '../approvals/shown-arguments';
import { approverRolesOf } from '../approvals/approval-grant';

/** A trace is one call_id's records; an agent reusing a call_id forever must not make a page unbounded. */
export const TRACE_RECORDS_MAX = 500;

export interface TraceRecordView {
  id: string;
  seq: number;
  kind: string;
  created_at: string;
  request_id: string;
  tool: string;
  contract_version: string | null;
  contract_hash: string | null;
  args_hash: string;
  hash: string;
  /**
   * The previous record's hash in the record's lane as stored: all 64 characters for records
   * written before issue 19's compact evidence, else its first 16 (the whole value is that
   * record's `hash`; lib/evidence/evidence-hash.ts, STORED_PREV_HASH_CHARS).
   */
  prev_hash: string;
  api_key_id: string | null;
  api_key_name: string | null;
  actor_user_id: string | null;
  /** The member's email, when a person (not an agent key) made the record. */
  actor_label: string | null;
  decision: string;
  valid: boolean;
  duration_ms: number;
  execution_ms: number | null;
  errors: IssueView[];
  warnings: IssueView[];
  policy: { id: string | null; version: string | null; rule: string | null; detail: PolicyEvidence | null } | null;
  shadow_differs: boolean;
  /** The raw payloads kept with argument retention (redacted as stored), or `purged`; null when none were kept. */
  retained: RetainedView | null;
}

export interface TraceApprovalView {
  id: string;
  /** A pending approval past its deadline is shown as expired: undecided means denied. */
  status: string;
  tool: string;
  contract_version: string;
  reason: string;
  approver_roles: string[];
  approvers_required: number;
  escalation_level: number;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  decided_by_label: string | null;
  comment: string | null;
  /** The end user the agent says it acts for (context.user_id): its claim, not a fact. */
  user_id: string | null;
  /** The context the agent sent, its unverified claim; kept while pending (null after, or when too large). */
  context: Record<string, unknown> | null;
  policy: { id: string; version: string | null; rule: string | null } | null;
  votes: { approver_id: string; approver_label: string; decision: string; comment: string | null; created_at: string }[];
}

export interface TraceDetail {
  trace_id: string;
  call_id: string;
  tool: string;
  started_at: string;
  duration_ms: number;
  records: TraceRecordView[];
  /** More records exist than TRACE_RECORDS_MAX; the first ones are shown. */
  truncated: boolean;
  approvals: TraceApprovalView[];
  spans: TraceSpan[];
  /** How the call ended: the gate's last answer, the approval's, and validate/post's. */
  outcome: TraceOutcome;
  /**
   * Labels for the people and keys the trace's texts name as `user:<id>` / `api_key:<id>` (an
   * approver's edit in a policy reason): the member's email, the key's name, or the id marked
   * "(removed)".
   */
  people: Record<string, string>;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
/** A pending approval's context larger than this is left out of the page. */
const MAX_SHOWN_CONTEXT_CHARS = 64 * 1024;

/**
 * The trace's sequence numbers, oldest first: the first entries of the trace's range of the
 * (tenantKey, traceId, seq) index, so a trace of any length reads at most the limit.
 */
export function traceSeqsQuery(tenantId: string, traceId: string): Sql {
  return sql`SELECT "seq" FROM "Evidence" WHERE ${byTenantKey(tenantId)} AND "traceId" = ${traceId} ORDER BY "seq" ASC LIMIT ${TRACE_RECORDS_MAX + 1}`;
}

/** One trace with its records, approvals and timeline; 404 when the tenant has no such trace. */
export async function getTraceOrThrow(options: { tenantId: string; traceId: string; now?: Date }): Promise<TraceDetail> {
  const { tenantId } = options;
  // Stored lowercase; the search (`q`) already matched a pasted uppercase id, the detail 404ed.
  const traceId = options.traceId.toLowerCase();
  if (!TRACE_ID.test(traceId)) throw new NotFoundError('trace', options.traceId);
  const seqs = await db().$queryRaw<{ seq: unknown }[]>(traceSeqsQuery(tenantId, traceId));
  if (seqs.length === 0) throw new NotFoundError('trace', traceId);
  const wanted = seqs.slice(0, TRACE_RECORDS_MAX).map((r) => num(r.seq));
  const records = (
    await db().evidence.findMany({ where: { ...(await tenantEvidence(tenantId)), seq: { in: wanted } }, include: WITH_CONTRACT_HASH })
  )
    .map((row) => hashedRecordOf(row, tenantId))
    .sort((a, b) => a.seq - b.seq);
  const approvalRows = await db().approval.findMany({
    where: { tenantId, traceId },
    orderBy: { createdAt: 'asc' },
    take: 50,
    include: { votes: { orderBy: { createdAt: 'asc' } } },
  });
  const names = await apiKeyNames(
    tenantId,
    records.map((r) => r.apiKeyId),
  );
  const details = records.map((r) => parsePolicyEvidence(r.policy));
  const named = details.flatMap((d) => actorsIn(d?.reason));
  const people = await actorLabels(tenantId, [
    ...records.map((r) => (r.actorUserId ? `user:${r.actorUserId}` : null)),
    ...approvalRows.flatMap((a) => [a.decidedBy, ...a.votes.map((v) => v.approverId)]),
    ...named,
  ]);
  const now = options.now ?? new Date();

  const views = records.map((r, i): TraceRecordView => {
    const detail = details[i] ?? null;
    return {
      id: r.id,
      seq: r.seq,
      kind: r.kind,
      created_at: r.createdAt.toISOString(),
      request_id: r.requestId,
      tool: r.tool,
      contract_version: r.contractVersion,
      contract_hash: r.contractHash,
      args_hash: r.argsHash,
      hash: r.hash,
      prev_hash: r.prevHash,
      api_key_id: r.apiKeyId,
      api_key_name: r.apiKeyId ? (names.get(r.apiKeyId) ?? null) : null,
      actor_user_id: r.actorUserId,
      actor_label: r.actorUserId ? (people.get(`user:${r.actorUserId}`) ?? null) : null,
      decision: r.decision,
      valid: r.valid,
      duration_ms: r.durationMs,
      execution_ms: r.executionMs,
      errors: parseIssues(r.errors),
      warnings: parseIssues(r.warnings),
      policy: r.policyId || detail ? { id: r.policyId, version: r.policyVersion, rule: r.policyRule, detail } : null,
      shadow_differs: r.shadowDiffers,
      retained: retainedView(r),
    };
  });
  // The agent's context as the evidence record keeps it: redacted at the sensitive paths.
  const contexts = await Promise.all(
    approvalRows.map((a) =>
      a.context === null || a.context.length > MAX_SHOWN_CONTEXT_CHARS
        ? null
        : argumentsForPeople(a, JSON.parse(a.context) as Record<string, unknown>),
    ),
  );
  const approvals = approvalRows.map((a, index): TraceApprovalView => ({
    id: a.id,
    status: a.status === 'pending' && a.expiresAt.getTime() <= now.getTime() ? 'expired' : a.status,
    tool: a.tool,
    contract_version: a.contractVersion,
    reason: a.reason,
    approver_roles: approverRolesOf(a.approverRoles),
    approvers_required: a.approversRequired,
    escalation_level: a.escalationLevel,
    created_at: a.createdAt.toISOString(),
    expires_at: a.expiresAt.toISOString(),
    decided_at: a.decidedAt?.toISOString() ?? null,
    decided_by: a.decidedBy,
    decided_by_label: a.decidedBy ? (people.get(a.decidedBy) ?? a.decidedBy) : null,
    comment: a.comment,
    user_id: a.userId,
    context: contexts[index] ?? null,
    policy: a.policyId ? { id: a.policyId, version: a.policyVersion, rule: a.policyRule } : null,
    votes: a.votes.map((v) => ({
      approver_id: v.approverId,
      approver_label: people.get(v.approverId) ?? v.approverId,
      decision: v.decision,
      comment: v.comment,
      created_at: v.createdAt.toISOString(),
    })),
  }));
  const timeline = buildTraceSpans(
    records.map((r, i) => {
      const detail = views[i]?.policy?.detail ?? null;
      const label = r.policyId
        ? `${r.policyId}${r.policyVersion ? `@${r.policyVersion}` : ''}${r.policyRule ? ` rule ${r.policyRule}` : ''}`
        : null;
      return {
        seq: r.seq,
        kind: r.kind,
        createdAt: r.createdAt,
        durationMs: r.durationMs,
        executionMs: r.executionMs,
        decision: r.decision,
        policyMs: detail ? detail.duration_ms : null,
        policyLabel: label,
      };
    }),
    approvalRows.map((a) => ({ id: a.id, status: a.status, createdAt: a.createdAt, decidedAt: a.decidedAt, expiresAt: a.expiresAt })),
    now,
  );
  const first = records[0] as (typeof records)[number];
  return {
    trace_id: traceId,
    call_id: first.callId,
    tool: first.tool,
    started_at: (timeline.startedAt ?? first.createdAt).toISOString(),
    duration_ms: timeline.durationMs,
    records: views,
    truncated: seqs.length > TRACE_RECORDS_MAX,
    approvals,
    spans: timeline.spans,
    outcome: traceOutcome(records, approvals),
    people: Object.fromEntries(named.map((actor) => [actor, people.get(actor) ?? actor])),
  };
}
