import { db } from '../db';
import { ApiError, NotFoundError } from '../api/errors';
import { recordEvidence } from '../evidence/record-evidence';
import type { Role } from '../tenants/roles';

/** How long an approved call's token stays redeemable. */
const TOKEN_TTL_MS = 15 * 60 * 1000;

export type Approver = { kind: 'api_key'; apiKeyId: string } | { kind: 'session'; userId: string; role: Role };

/**
 * Approves or denies a pending approval. The conditional update makes the decision exactly
 * once: a second decider, or one after the deadline, gets a conflict. The decision is evidence.
 */
export async function decideApproval(options: { tenantId: string; id: string; decision: 'approve' | 'deny'; comment?: string; approver: Approver; requestId: string }) {
  const row = await db().approval.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('approval', options.id);
  const roles = row.approverRoles ? row.approverRoles.split(' ') : [];
  // Admin keys and admins may decide anything; other people need a role the contract names.
  if (options.approver.kind === 'session' && options.approver.role !== 'admin' && roles.length > 0 && !roles.includes(options.approver.role)) {
    throw new ApiError('forbidden', `Approving ${row.tool} needs one of the roles: ${roles.join(', ')}.`, { code: 'AXAG_ROLE_INSUFFICIENT', approver_roles: roles });
  }
  if (row.status !== 'pending') throw new ApiError('conflict', `The approval is already ${row.status}.`, { status: row.status });
  const now = new Date();
  if (row.expiresAt.getTime() <= now.getTime()) {
    await db().approval.updateMany({ where: { id: row.id, status: 'pending' }, data: { status: 'expired' } });
    throw new ApiError('conflict', 'The approval expired before it was decided.', { status: 'expired' });
  }
  const status = options.decision === 'approve' ? 'approved' : 'denied';
  const decidedBy = options.approver.kind === 'api_key' ? `api_key:${options.approver.apiKeyId}` : `user:${options.approver.userId}`;

  await recordEvidence(
    {
      tenantId: options.tenantId,
      kind: 'approval_decision',
      requestId: options.requestId,
      traceId: row.traceId,
      callId: row.callId,
      apiKeyId: options.approver.kind === 'api_key' ? options.approver.apiKeyId : null,
      actorUserId: options.approver.kind === 'session' ? options.approver.userId : null,
      tool: row.tool,
      contractVersion: row.contractVersion,
      argsHash: row.argsHash,
      decision: status,
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 0,
    },
    async (tx) => {
      const updated = await tx.approval.updateMany({
        where: { id: row.id, status: 'pending', expiresAt: { gt: now } },
        data: { status, decidedAt: now, decidedBy, comment: options.comment ?? null, ...(status === 'approved' ? { expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) } : {}) },
      });
      if (updated.count !== 1) throw new ApiError('conflict', 'The approval was decided by someone else first.');
    },
  );
  return { id: row.id, status, decided_at: now.toISOString(), comment: options.comment ?? null };
}
