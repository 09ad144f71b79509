import { db } from '../db';
import { NotFoundError } from '../errors';
import { issueCallToken } from './call-token';
import { approvalOutcome, type ApprovalStatus } from './approval-outcome';
import { expireApproval } from './expire-approval';
import { argumentsForPeople, parseRewrittenBy } from './shown-arguments';
import { approverRolesOf } from './approval-grant';

export interface ApprovalView {
  id: string;
  status: ApprovalStatus;
  /** What the agent does: wait (pending), run with the token (approved), or not run (denied, also when expired). */
  outcome: 'pending' | 'approved' | 'denied';
  tool: string;
  version: string;
  call_id: string;
  trace_id: string;
  side_effect_level: string;
  approver_roles: string[];
  approvals: number;
  approvers_required: number;
  escalation_level: number;
  reason: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  comment: string | null;
  /** Whether an approver edited the arguments (or a policy rewrote them); the token is then bound to `arguments`. */
  edited: boolean;
  /** The policies and rules whose transforms rewrote the held call's arguments; null when an approver edited them, or nothing did. */
  rewritten_by: { policy_id: string; version: string; rule: string }[] | null;
  /**
   * Present when the arguments were edited or rewritten: the exact arguments the agent must send
   * on its retry (with the token); the original arguments no longer match the token. People
   * (sessions) see them with sensitive paths redacted, and never the token: only an agent's key
   * can use either.
   */
  arguments?: Record<string, unknown>;
  /** Present once approved and until used, to the API key that asked for it: the single-use token bound to the exact call. */
  approval_token?: string;
  token_used: boolean;
}

/**
 * An approval as the requesting agent sees it. A pending approval past its deadline is
 * expired here, with its evidence, if the sweeper has not done it yet: undecided means
 * denied, never approved.
 */
export async function getApprovalOrThrow(options: {
  tenantId: string;
  id: string;
  secret: string;
  /** A person asks (a session), not an agent's key: sensitive values redacted, no token. */
  forPerson?: boolean;
  /** The API key asking: the token is shown to the key that asked for the approval, no other. */
  apiKeyId?: string;
}): Promise<ApprovalView> {
  let row = await db().approval.findFirst({ where: { id: options.id, tenantId: options.tenantId } });
  if (!row) throw new NotFoundError('approval', options.id);
  if (row.status === 'pending' && row.expiresAt.getTime() <= Date.now()) {
    await expireApproval(row);
    row = await db().approval.findFirstOrThrow({ where: { id: row.id, tenantId: options.tenantId } });
  }
  const approvals = await db().approvalVote.count({ where: { approvalId: row.id, tenantId: options.tenantId, decision: 'approve' } });
  const view: ApprovalView = {
    id: row.id,
    status: row.status as ApprovalStatus,
    outcome: approvalOutcome(row.status),
    tool: row.tool,
    version: row.contractVersion,
    call_id: row.callId,
    trace_id: row.traceId,
    side_effect_level: row.sideEffectLevel,
    approver_roles: approverRolesOf(row.approverRoles),
    approvals,
    approvers_required: row.approversRequired,
    escalation_level: row.escalationLevel,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    comment: row.comment,
    edited: row.editedArguments !== null,
    rewritten_by: parseRewrittenBy(row.rewrittenBy),
    token_used: row.tokenUsedAt !== null,
  };
  if (row.editedArguments !== null) {
    const edited = JSON.parse(row.editedArguments) as Record<string, unknown>;
    const shown = options.forPerson ? await argumentsForPeople(row, edited) : edited;
    if (shown !== null) view.arguments = shown;
  }
  const asker = row.apiKeyId === null || row.apiKeyId === options.apiKeyId;
  if (!options.forPerson && asker && row.status === 'approved' && !row.tokenUsedAt && row.expiresAt.getTime() > Date.now()) {
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
