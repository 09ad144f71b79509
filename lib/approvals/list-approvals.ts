import { db } from '../db';
import { resolveContract } from '../contracts/resolve-contract';
import { redactArguments } from '../evidence/redact-arguments';
import type { Approval } from '../generated/sqlite/client';
import { approvalOutcome, type ApprovalStatus } from './approval-outcome';
import type { ApprovalQueueItem, ApprovalQueuePage, ApprovalVoteView, QueueFilter, TraceStepView } from './approval-queue-types';
import { expireOverdueApprovals } from './expire-approval';
import { actorLabels } from '../tenants/actor-labels';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';

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
 * arguments, who asked, which rule, the votes so far and the call's trace. Overdue approvals
 * are expired first, so the queue never offers one that can no longer be decided. `limit: 0`
 * answers only the counts (the navigation's badge).
 */
export async function listApprovals(options: { tenantId: string; status: QueueFilter; cursor?: string; limit: number; now?: Date }): Promise<ApprovalQueuePage> {
  const { tenantId } = options;
  await expireOverdueApprovals({ tenantId, limit: 50 });
  const pending = await db().approval.count({ where: { tenantId, status: 'pending' } });
  if (options.limit === 0) return { approvals: [], next_cursor: null, counts: { pending } };

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
  const [votes, keys, steps] = await Promise.all([
    db().approvalVote.findMany({ where: { tenantId, approvalId: { in: ids } }, orderBy: { createdAt: 'asc' } }),
    db().apiKey.findMany({ where: { tenantId, id: { in: [...new Set(page.map((row) => row.apiKeyId).filter((id): id is string => id !== null))] } }, select: { id: true, name: true, prefix: true } }),
    db().evidence.findMany({
      // No orderBy: without statistics SQLite would walk the tenant's whole (tenantId, seq)
      // index to avoid sorting a handful of rows; the traceId index finds them, JS sorts them.
      where: { tenantId, traceId: { in: [...new Set(page.map((row) => row.traceId))] } },
      take: MAX_TRACE_STEPS * page.length * 4,
      select: { id: true, seq: true, traceId: true, kind: true, decision: true, errors: true, createdAt: true },
    }),
  ]);
  steps.sort((a, b) => a.seq - b.seq);
  const emails = await actorLabels(tenantId, [...votes.map((v) => v.approverId), ...page.map((row) => row.decidedBy)]);
  const keyById = new Map(keys.map((k) => [k.id, k]));
  const now = options.now ?? new Date();

  const approvals: ApprovalQueueItem[] = [];
  for (const row of page) {
    const rowVotes: ApprovalVoteView[] = votes
      .filter((v) => v.approvalId === row.id)
      .map((v) => ({ approver: v.approverId, approver_label: emails.get(v.approverId) ?? v.approverId, decision: v.decision, comment: v.comment, created_at: v.createdAt.toISOString() }));
    const trace: TraceStepView[] = steps
      .filter((s) => s.traceId === row.traceId)
      .slice(0, MAX_TRACE_STEPS)
      .map((s) => ({ evidence_id: s.id, kind: s.kind, decision: s.decision, codes: errorCodes(s.errors), created_at: s.createdAt.toISOString() }));
    const shown = await shownArguments(row);
    const key = row.apiKeyId ? keyById.get(row.apiKeyId) : undefined;
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
      args_hash: row.argsHash,
      original_args_hash: row.originalArgsHash,
      requesting_key: key ? { id: key.id, name: key.name, prefix: key.prefix } : null,
      user_id: row.userId,
      policy: row.policyId ? { id: row.policyId, version: row.policyVersion, rule: row.policyRule } : null,
      approver_roles: row.approverRoles ? row.approverRoles.split(' ') : [],
      votes: rowVotes,
      approvals: rowVotes.filter((v) => v.decision === 'approve').length,
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

/** The arguments an approver sees: the current ones (edited, else the agent's), redacted. */
async function shownArguments(row: Approval): Promise<{ arguments: Record<string, unknown> | null; omitted: boolean }> {
  const text = row.editedArguments ?? row.arguments;
  if (text === null) return { arguments: null, omitted: false };
  if (text.length > MAX_SHOWN_ARGUMENT_CHARS) return { arguments: null, omitted: true };
  const resolved = await resolveContract({ tenantId: row.tenantId, tool: row.tool, version: row.contractVersion });
  const parsed = JSON.parse(text) as Record<string, unknown>;
  // A version that no longer resolves has no known sensitive paths: show nothing rather than guess.
  if (!resolved.found) return { arguments: null, omitted: true };
  const sensitive = mergeSensitivePaths(resolved.contract.compiled.document.sensitive, (await getRuntimeSettings(row.tenantId)).sensitivePaths);
  return { arguments: JSON.parse(redactArguments(parsed, sensitive)) as Record<string, unknown>, omitted: false };
}

function errorCodes(errors: string): string[] {
  try {
    const parsed = JSON.parse(errors) as { code?: unknown }[];
    return Array.isArray(parsed) ? parsed.map((e) => String(e.code ?? '')).filter(Boolean) : [];
  } catch {
    return [];
  }
}
