import { randomUUID } from 'node:crypto';
import { db } from '../db';
import type { Approval } from '../generated/sqlite/client';
import { recordEvidence } from '../evidence/record-evidence';
import { enqueueApprovalEvent } from './approval-webhook';
import { notifyApprovalChanged } from './approval-events';

/** Thrown inside the transaction when the approval was settled by someone else first. */
class AlreadySettled extends Error {}

/**
 * Ends an overdue pending approval: status `expired` (final; its outcome is denied, never
 * approved), an `approval_decision` evidence record with decision `expired`, and the
 * `approval.decided` webhook, all in one transaction. The conditional update only matches a
 * row that is still pending and past its deadline, so of several instances (the sweeper, a
 * lazy read, a late decision) exactly one records it. Returns whether this call did.
 */
export async function expireApproval(row: Approval, options: { requestId?: string; now?: Date } = {}): Promise<boolean> {
  const now = options.now ?? new Date();
  if (row.status !== 'pending' || row.expiresAt.getTime() > now.getTime()) return false;
  try {
    await recordEvidence(
      {
        tenantId: row.tenantId,
        kind: 'approval_decision',
        requestId: options.requestId ?? `expiry-${randomUUID()}`,
        traceId: row.traceId,
        callId: row.callId,
        tool: row.tool,
        contractVersion: row.contractVersion,
        argsHash: row.originalArgsHash ?? row.argsHash,
        decision: 'expired',
        valid: true,
        errors: [],
        warnings: [],
        durationMs: 0,
        policyId: row.policyId,
        policyVersion: row.policyVersion,
        policyRule: row.policyRule,
      },
      async (tx) => {
        const settled = { status: 'expired', decidedAt: now, decidedBy: 'system:expiry', arguments: null, context: null };
        const updated = await tx.approval.updateMany({
          where: { id: row.id, tenantId: row.tenantId, status: 'pending', expiresAt: { lte: now } },
          data: settled,
        });
        if (updated.count !== 1) throw new AlreadySettled();
        await enqueueApprovalEvent(tx, 'approval.decided', { ...row, ...settled });
      },
    );
  } catch (error) {
    if (error instanceof AlreadySettled) return false;
    throw error;
  }
  notifyApprovalChanged(row.id);
  return true;
}

/**
 * Expires every overdue pending approval (of one tenant, or of all when the sweeper runs), at
 * most `limit` per call. Everything it needs is in the database, so it picks up approvals
 * left pending by instances that stopped or restarted.
 */
export async function expireOverdueApprovals(options: { tenantId?: string; limit?: number; now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const overdue = await db().approval.findMany({
    where: { ...(options.tenantId ? { tenantId: options.tenantId } : {}), status: 'pending', expiresAt: { lte: now } },
    orderBy: { expiresAt: 'asc' },
    take: options.limit ?? 100,
  });
  let expired = 0;
  for (const row of overdue) if (await expireApproval(row, { now })) expired++;
  return expired;
}
