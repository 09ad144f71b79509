import type { Tx } from '../db';
import type { CallBinding } from './call-token';


/**
 * The pending approval for a call that needs one. A retry of the same call (same binding)
 * while one is pending gets that approval back instead of queueing a duplicate.
 */
export async function requestApproval(
  tx: Tx,
  options: { binding: CallBinding; callId: string; traceId: string; apiKeyId: string | null; approverRoles: string[]; reason: string; ttlSeconds: number },
) {
  const { binding } = options;
  const now = new Date();
  const existing = await tx.approval.findFirst({
    where: { tenantId: binding.tenantId, tool: binding.tool, contractVersion: binding.contractVersion, argsHash: binding.argsHash, userId: binding.userId, status: 'pending', expiresAt: { gt: now } },
    orderBy: { createdAt: 'desc' },
  });
  if (existing) return existing;
  return tx.approval.create({
    data: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      argsHash: binding.argsHash,
      userId: binding.userId,
      callId: options.callId,
      traceId: options.traceId,
      apiKeyId: options.apiKeyId,
      approverRoles: options.approverRoles.join(' '),
      reason: options.reason,
      status: 'pending',
      expiresAt: new Date(now.getTime() + options.ttlSeconds * 1000),
    },
  });
}
