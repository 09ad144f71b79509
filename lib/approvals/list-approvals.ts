import { db } from '../db';
import { tenantEvidence } from '../evidence/tenant-key';
import { redactArguments } from '../evidence/redact-arguments';
import type { Approval } from '../generated/sqlite/client';
import { approvalOutcome, type ApprovalStatus } from './approval-outcome';
import type {
  ApprovalEscalationView,
  ApprovalQueueItem,
  ApprovalQueuePage,
  ApprovalVoteView,
  QueueFilter,
  TraceStepView,
} from './approval-queue-types';
import { approverRights, type ApprovalViewer } from './approver-rights';
import type { Approver } from './decide-approval';
import { diffRedactedArguments, type ArgumentsDiff } from './diff-arguments';
import { expireOverdueApprovals } from './expire-approval';
import { actorLabels } from '../tenants/actor-labels';
import { approvalSensitivePaths, parseRewrittenBy } from './shown-arguments';
import { approverRolesOf } from './approval-grant';

/** Arguments larger than this are not sent to the queue (a page holds up to 100 approvals). */
const MAX_SHOWN_ARGUMENT_CHARS = 64 * 1024;
/** Evidence rows shown per approval's trace. */
const MAX_TRACE_STEPS = 50;

const STATUS_WHERE: Record<QueueFilter, string[] | null> = {
  pending: ['pending'],
  decided: ['approved', 'denied', 'expired'],
  approved: ['approved'],
  denied: ['denied'],
  expired: ['expired'],
  all: null,
};

/**
 * The approval queue of one tenant, newest first, `limit` per page with a cursor (the last
 * row's id). Each approval comes with what an approver needs to decide: the redacted
 * arguments and the context the agent sent (its claims), what an edit changed, who asked,
 * which rule, the votes so far, an escalation's comment, the call's trace, and what the
 * `viewer` (the signed-in person or the admin key asking) may do with it and why not.
 * Overdue approvals are expired first, so the queue never offers one that can no longer be
 * decided. `limit: 0` answers only the counts (the navigation's badge).
 */
export async function listApprovals(options: {
  tenantId: string;
  status: QueueFilter;
  cursor?: string;
  limit: number;
  viewer: Approver;
  now?: Date;
}): Promise<ApprovalQueuePage> {
  const { tenantId } = options;
  await expireOverdueApprovals({ tenantId, limit: 50 });
  const pending = await db().approval.count({ where: { tenantId, status: 'pending' } });
  if (options.limit === 0) return { approvals: [], next_cursor: null, counts: { pending } };

  // Prisma finds a cursor's row by id alone: another tenant's approval id would place this
  // tenant's page at that row's time (whether it exists, and when). Only this tenant's ids count.
  if (options.cursor && !(await db().approval.findFirst({ where: { id: options.cursor, tenantId }, select: { id: true } })))
    return { approvals: [], next_cursor: null, counts: { pending } };
  const statuses = STATUS_WHERE[options.status];
  const rows = await db().approval.findMany({
    where: { tenantId, ...(statuses ? { status: { in: statuses } } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: options.limit + 1,
    ...(options.cursor ? { cursor: { id: options.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, options.limit);
  if (page.length === 0) return { approvals: [], next_cursor: null, counts: { pending } };

  const ids = page.map((row) => row.id);
  const tenant = await tenantEvidence(tenantId);
  const [votes, keys, steps, viewer] = await Promise.all([
    db().approvalVote.findMany({ where: { tenantId, approvalId: { in: ids } }, orderBy: { createdAt: 'asc' } }),
    db().apiKey.findMany({
      where: { tenantId, id: { in: [...new Set(page.map((row) => row.apiKeyId).filter((id): id is string => id !== null))] } },
      select: { id: true, name: true, prefix: true, createdById: true },
    }),
    db().evidence.findMany({
      // No orderBy: without statistics SQLite would walk the tenant's whole (tenantKey, seq)
      // index to avoid sorting a handful of rows; the (tenantKey, traceId, seq) index finds
      // them, JS sorts them.
      where: { ...tenant, traceId: { in: [...new Set(page.map((row) => row.traceId))] } },
      take: MAX_TRACE_STEPS * page.length * 4,
      select: {
        id: true,
        seq: true,
        traceId: true,
        kind: true,
        decision: true,
        errors: true,
        createdAt: true,
        actorUserId: true,
        apiKeyId: true,
      },
    }),
    approvalViewer(tenantId, options.viewer),
  ]);
  steps.sort((a, b) => a.seq - b.seq);
  const escalations = steps.filter((s) => s.kind === 'approval_decision' && s.decision === 'escalated');
  const emails = await actorLabels(tenantId, [
    ...votes.map((v) => v.approverId),
    ...page.map((row) => row.decidedBy),
    ...escalations.map(stepActor),
  ]);
  const keyById = new Map(keys.map((k) => [k.id, k]));
  const now = options.now ?? new Date();

  const approvals: ApprovalQueueItem[] = [];
  for (const row of page) {
    const rowVotes: ApprovalVoteView[] = votes
      .filter((v) => v.approvalId === row.id)
      .map((v) => ({
        approver: v.approverId,
        approver_label: emails.get(v.approverId) ?? v.approverId,
        decision: v.decision,
        comment: v.comment,
        created_at: v.createdAt.toISOString(),
      }));
    const trace: TraceStepView[] = steps
      .filter((s) => s.traceId === row.traceId)
      .slice(0, MAX_TRACE_STEPS)
      .map((s) => ({
        evidence_id: s.id,
        kind: s.kind,
        decision: s.decision,
        codes: errorCodes(s.errors),
        created_at: s.createdAt.toISOString(),
      }));
    const shown = await shownCall(row);
    const key = row.apiKeyId ? keyById.get(row.apiKeyId) : undefined;
    const approverRoles = approverRolesOf(row.approverRoles);
    const approvalCount = rowVotes.filter((v) => v.decision === 'approve').length;
    approvals.push({
      id: row.id,
      status: row.status as ApprovalStatus,
      outcome: approvalOutcome(row.status),
      tool: row.tool,
      version: row.contractVersion,
      side_effect_level: row.sideEffectLevel,
      reason: row.reason,
      arguments: shown.arguments,
      arguments_omitted: shown.omitted,
      edited: row.editedArguments !== null,
      rewritten_by: parseRewrittenBy(row.rewrittenBy),
      args_hash: row.argsHash,
      original_args_hash: row.originalArgsHash,
      requesting_key: key ? { id: key.id, name: key.name, prefix: key.prefix } : null,
      user_id: row.userId,
      context: shown.context,
      context_omitted: shown.contextOmitted,
      arguments_diff: shown.diff,
      escalation: escalationView(row, escalations, emails),
      viewer: approverRights({
        approval: {
          ...row,
          approverRoles,
          requestingKeyCreatorId: key?.createdById ?? null,
          votes: rowVotes.map((v) => ({ approverId: v.approver, decision: v.decision })),
          approvals: approvalCount,
        },
        viewer,
        now,
      }),
      policy: row.policyId ? { id: row.policyId, version: row.policyVersion, rule: row.policyRule } : null,
      approver_roles: approverRoles,
      votes: rowVotes,
      approvals: approvalCount,
      approvers_required: row.approversRequired,
      escalation_level: row.escalationLevel,
      escalated_at: row.escalatedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      time_left_seconds: row.status === 'pending' ? Math.max(0, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)) : 0,
      decided_at: row.decidedAt?.toISOString() ?? null,
      decided_by: row.decidedBy,
      decided_by_label: row.decidedBy ? (emails.get(row.decidedBy) ?? row.decidedBy) : null,
      comment: row.comment,
      call_id: row.callId,
      trace_id: row.traceId,
      trace,
    });
  }
  return { approvals, next_cursor: rows.length > options.limit ? (page[page.length - 1]?.id ?? null) : null, counts: { pending } };
}

/** The viewer as the rights check needs it: an API key also stands for the person who created it. */
async function approvalViewer(tenantId: string, approver: Approver): Promise<ApprovalViewer> {
  if (approver.kind === 'session') return approver;
  const key = await db().apiKey.findFirst({ where: { id: approver.apiKeyId, tenantId }, select: { createdById: true } });
  return { kind: 'api_key', apiKeyId: approver.apiKeyId, createdById: key?.createdById ?? null };
}

type EscalationStep = { traceId: string; createdAt: Date; actorUserId: string | null; apiKeyId: string | null };

function stepActor(step: EscalationStep): string | null {
  return step.actorUserId ? `user:${step.actorUserId}` : step.apiKeyId ? `api_key:${step.apiKeyId}` : null;
}

/**
 * While an escalated approval is pending, its comment is the escalation's (escalating clears
 * the votes and keeps the escalator's comment on the approval): the next level reads it. The
 * escalator is the latest `escalated` decision of this approval's trace; none when a policy
 * rule escalated the call up front.
 */
function escalationView(row: Approval, escalations: EscalationStep[], labels: Map<string, string>): ApprovalEscalationView | null {
  if (row.escalationLevel === 0) return null;
  const step = escalations.filter((s) => s.traceId === row.traceId && s.createdAt.getTime() >= row.createdAt.getTime()).at(-1);
  const by = step ? stepActor(step) : null;
  return {
    by,
    by_label: by ? (labels.get(by) ?? by) : null,
    at: row.escalatedAt?.toISOString() ?? null,
    comment: row.status === 'pending' ? row.comment : null,
  };
}

interface ShownCall {
  arguments: Record<string, unknown> | null;
  omitted: boolean;
  context: Record<string, unknown> | null;
  contextOmitted: boolean;
  diff: ArgumentsDiff | null;
}

/**
 * What an approver sees of the call: the current arguments (edited, else the agent's) and,
 * after an edit, what it changed, all redacted at the contract's and the tenant's sensitive
 * paths; and the context the agent sent (its claim), redacted at the same paths as the evidence
 * record keeps it (the tenant's sensitive_paths name context fields too, e.g. state.pin).
 */
async function shownCall(row: Approval): Promise<ShownCall> {
  const contextText = row.context;
  const contextOmitted = contextText !== null && contextText.length > MAX_SHOWN_ARGUMENT_CHARS;
  // A version that no longer resolves has no known sensitive paths: nothing is shown rather than guessed.
  const sensitive = await approvalSensitivePaths(row);
  const context =
    contextText === null || contextOmitted || sensitive === null
      ? null
      : (JSON.parse(redactArguments(JSON.parse(contextText) as Record<string, unknown>, sensitive)) as Record<string, unknown>);
  const shown: ShownCall = { arguments: null, omitted: false, context, contextOmitted, diff: null };
  const text = row.editedArguments ?? row.arguments;
  if (text === null) return shown;
  if (text.length > MAX_SHOWN_ARGUMENT_CHARS) return { ...shown, omitted: true };
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (sensitive === null) return { ...shown, omitted: true };
  const diff =
    row.editedArguments !== null && row.arguments !== null && row.arguments.length <= MAX_SHOWN_ARGUMENT_CHARS
      ? diffRedactedArguments({ original: JSON.parse(row.arguments) as Record<string, unknown>, edited: parsed, sensitive })
      : null;
  return { ...shown, arguments: JSON.parse(redactArguments(parsed, sensitive)) as Record<string, unknown>, diff };
}

function errorCodes(errors: string): string[] {
  try {
    const parsed = JSON.parse(errors) as { code?: unknown }[];
    return Array.isArray(parsed) ? parsed.map((e) => String(e.code ?? '')).filter(Boolean) : [];
  } catch {
    return [];
  }
}
