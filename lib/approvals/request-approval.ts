import type { Tx } from '../db';
import type { CallBinding } from './call-token';
import { enqueueApprovalEvent } from './approval-webhook';
import { approvalShortfall, grantOf, storedApproverRoles } from './approval-grant';
import { wellFormed } from '../evidence/chain-records';
import { now as clockNow } from '../clock/clock';

/**
 * The pending approval for a call that needs one. A retry of the same call (same binding)
 * while one is pending, or approved and not yet used, gets that approval back instead of
 * queueing a duplicate (a twin queued beside an approved one could be denied while the approved
 * one still redeemed), also after an approver edited its arguments (it is then found by the
 * agent's original arguments' hash).
 * A new approval queues `approval.pending` for the tenant's webhooks in the same transaction.
 * A retry that finds the pending approval leaves its stored context as it was: approvers
 * decide on what the first call claimed, and the retry with the token is checked afresh.
 */
export async function requestApproval(
  tx: Tx,
  options: {
    binding: CallBinding;
    callId: string;
    traceId: string;
    apiKeyId: string | null;
    approverRoles: string[];
    reason: string;
    ttlSeconds: number;
    sideEffectLevel: string;
    /** The arguments exactly as the agent sent them (the queue shows them redacted). */
    arguments: unknown;
    /** The context the agent sent (end user, roles, state): shown to approvers as its claim. */
    context: unknown;
    /** Distinct approvers needed; at least 1. */
    approversRequired: number;
    /** 1 when a policy rule escalated the call straight to a higher role. */
    escalationLevel: number;
    policy: { id: string; version: string; rule: string } | null;
    /**
     * Policy transforms rewrote the arguments: the call that would run is the rewritten one, so
     * that is what approvers see and approve (as a change against the agent's arguments) and
     * what the token is bound to, as if proposed as an edit.
     */
    rewritten?: { arguments: Record<string, unknown>; argsHash: string; by: { policy_id: string; version: string; rule: string }[] };
  },
) {
  const { binding } = options;
  const now = clockNow();
  const need = {
    roles: options.approverRoles,
    approversRequired: Math.max(1, options.approversRequired),
    escalated: options.escalationLevel > 0,
  };
  const candidates = await tx.approval.findMany({
    where: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      userId: binding.userId,
      // Each key's call is its own: another key's identical call waits for an approval of its own
      // (the token is the asking key's alone, lib/approvals/check-call-token.ts).
      apiKeyId: options.apiKeyId,
      expiresAt: { gt: now },
      AND: [
        { OR: [{ argsHash: binding.argsHash }, { originalArgsHash: binding.argsHash }] },
        { OR: [{ status: 'pending' }, { status: 'approved', tokenUsedAt: null }] },
      ],
    },
    orderBy: { createdAt: 'desc' },
    take: 10,
  });
  // One given by fewer or other people than the call needs now is not its approval: a new one is
  // queued beside it (that one can never redeem this call, lib/approvals/approval-grant.ts).
  const existing = candidates.find((row) => !approvalShortfall(grantOf(row), need));
  if (existing) return existing;
  const created = await tx.approval.create({
    data: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      argsHash: options.rewritten?.argsHash ?? binding.argsHash,
      originalArgsHash: options.rewritten ? binding.argsHash : null,
      editedArguments: options.rewritten ? JSON.stringify(options.rewritten.arguments) : null,
      rewrittenBy: options.rewritten ? JSON.stringify(options.rewritten.by) : null,
      userId: binding.userId,
      callId: options.callId,
      traceId: options.traceId,
      apiKeyId: options.apiKeyId,
      approverRoles: storedApproverRoles(options.approverRoles),
      // From a published document's text: as evidence stores it (a NUL failed the call on PostgreSQL).
      reason: wellFormed(options.reason),
      sideEffectLevel: options.sideEffectLevel,
      arguments: JSON.stringify(options.arguments),
      context: JSON.stringify(options.context),
      approversRequired: Math.max(1, options.approversRequired),
      escalationLevel: options.escalationLevel,
      escalatedAt: options.escalationLevel > 0 ? now : null,
      policyId: options.policy?.id ?? null,
      policyVersion: options.policy?.version ?? null,
      policyRule: options.policy?.rule ?? null,
      status: 'pending',
      createdAt: now,
      expiresAt: new Date(now.getTime() + options.ttlSeconds * 1000),
    },
  });
  await enqueueApprovalEvent(tx, 'approval.pending', created);
  return created;
}
