import { db } from '../db';
import { NotFoundError } from '../api/errors';
import { issueCallToken } from './call-token';

export interface ApprovalView {
  id: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  tool: string;
  version: string;
  call_id: string;
  trace_id: string;
  approver_roles: string[];
  reason: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  comment: string | null;
  /** Present once approved and until used: the single-use token bound to the exact call. */
  approval_token?: string;
  token_used: boolean;
}

/**
 * An approval as the requesting agent sees it. A pending approval past its deadline is
 * reported (and stored) as expired: undecided means denied, never approved.
 */
export async function getApprovalOrThrow(options: { tenantId: string; id: string; secret: string }): Promise<ApprovalView> {
  let row = await db().approval.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('approval', options.id);
  if (row.status === 'pending' && row.expiresAt.getTime() <= Date.now()) {
    await db().approval.updateMany({ where: { id: row.id, status: 'pending' }, data: { status: 'expired' } });
    row = await db().approval.findFirstOrThrow({ where: { id: row.id } });
  }
  const view: ApprovalView = {
    id: row.id,
    status: row.status as ApprovalView['status'],
    tool: row.tool,
    version: row.contractVersion,
    call_id: row.callId,
    trace_id: row.traceId,
    approver_roles: row.approverRoles ? row.approverRoles.split(' ') : [],
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    comment: row.comment,
    token_used: row.tokenUsedAt !== null,
  };
  if (row.status === 'approved' && !row.tokenUsedAt && row.expiresAt.getTime() > Date.now()) {
    view.approval_token = issueCallToken(options.secret, 'approval', row.id, {
      tenantId: row.tenantId,
      tool: row.tool,
      contractVersion: row.contractVersion,
      argsHash: row.argsHash,
      userId: row.userId,
    });
  }
  return view;
}
