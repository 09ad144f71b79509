import { db } from '../db';
import type { FirstRecordId } from '../evidence/first-record-id';
import { AppError, NotFoundError } from '../errors';
import { recordEvidence, type EvidenceInput } from '../evidence/record-evidence';
import { retainedPayloadJson } from '../retention/retained-payload';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';
import { resolveContract } from '../contracts/resolve-contract';
import type { PolicyEvidence } from '../policies/policy-evidence';
import type { Approval } from '../generated/sqlite/client';
import type { Role } from '../tenants/roles';
import { applyApprovalDecision, type DecisionPlan } from './apply-approval-decision';
import { notifyApprovalChanged } from './approval-events';
import { approvalOutcome } from './approval-outcome';
import { prepareEditedArguments } from './edit-approval-arguments';
import { expireApproval } from './expire-approval';
import { ESCALATION_ROLE, isHighestQueue, REQUESTER_REASONS, requesterRelation } from './approver-rights';
import { now as clockNow } from '../clock/clock';
import { approverRolesOf } from './approval-grant';

/** How long an approved call's token stays redeemable. */
const TOKEN_TTL_MS = 15 * 60 * 1000;

export type Approver = { kind: 'api_key'; apiKeyId: string } | { kind: 'session'; userId: string; role: Role };
export type ApprovalAction = 'approve' | 'deny' | 'escalate';

export interface DecisionResult {
  id: string;
  status: string;
  outcome: 'pending' | 'approved' | 'denied';
  decided_at: string | null;
  comment: string | null;
  approvals: number;
  approvers_required: number;
  approver_roles: string[];
  escalation_level: number;
  edited: boolean;
}

/**
 * One approver's decision on a pending approval: approve (optionally with edited arguments),
 * deny, or escalate to a higher role. Checks, in order: the approver may decide it (role), it
 * is still decidable (not expired, not decided), the approver is not the requester (approve
 * only: denying or escalating one's own call is always allowed), and edited arguments pass the
 * contract. The decision, its evidence record and its webhook commit in one transaction
 * (lib/approvals/apply-approval-decision.ts); concurrent decisions yield exactly one winner.
 *
 * N approvers: each approve is a vote of one person; the approval is approved when
 * `approversRequired` distinct people approved, and denied at the first deny.
 */
export async function decideApproval(options: {
  tenantId: string;
  id: string;
  decision: ApprovalAction;
  comment?: string;
  arguments?: Record<string, unknown>;
  approver: Approver;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
}): Promise<DecisionResult> {
  const { tenantId, approver } = options;
  const row = await db().approval.findFirst({ where: { id: options.id, tenantId } });
  if (!row) throw new NotFoundError('approval', options.id);
  const roles = approverRolesOf(row.approverRoles);
  // Admin keys and admins may decide anything; other people need a role the contract names.
  if (approver.kind === 'session' && approver.role !== 'admin' && roles.length > 0 && !roles.includes(approver.role)) {
    throw new AppError('forbidden', `Deciding ${row.tool} needs one of the roles: ${roles.join(', ')}.`, {
      code: 'AXAG_ROLE_INSUFFICIENT',
      approver_roles: roles,
    });
  }
  const now = clockNow();
  if (row.status === 'expired' || (row.status === 'pending' && row.expiresAt.getTime() <= now.getTime())) {
    await expireApproval(row, { now });
    throw new AppError('approval_expired', 'The approval expired before it was decided; undecided approvals are denied.', {
      status: 'expired',
    });
  }
  if (row.status !== 'pending')
    throw new AppError('conflict', `The approval is already ${row.status}.`, { reason: 'already_decided', status: row.status });
  if (options.arguments !== undefined && options.decision !== 'approve')
    throw new AppError('bad_request', 'Only an approve can carry edited arguments.');

  const identity = await approverIdentity(tenantId, approver);
  if (options.decision === 'approve') await assertNotRequester(row, identity);

  let escalateTo: string[] | null = null;
  if (options.decision === 'escalate') {
    if (isHighestQueue(roles))
      throw new AppError('conflict', `The approval is already in the ${ESCALATION_ROLE} queue; there is no higher role.`, {
        reason: 'highest_role',
      });
    escalateTo = [ESCALATION_ROLE];
  }

  const resolved = await resolveContract({ tenantId, tool: row.tool, version: row.contractVersion });
  const settings = await getRuntimeSettings(tenantId);
  // The queue showed these redacted: the contract's sensitive paths and the tenant's.
  const sensitive = mergeSensitivePaths(
    resolved.found ? resolved.contract.compiled.document.sensitive : undefined,
    settings.sensitivePaths,
  );
  let edit: DecisionPlan['edit'] = null;
  let editedArgs: Record<string, unknown> | null = null;
  if (options.arguments !== undefined) {
    if (!resolved.found)
      throw new AppError('conflict', `${row.tool}@${row.contractVersion} is no longer published, so edited arguments cannot be checked.`, {
        reason: 'contract_unavailable',
      });
    // The arguments the approver was shown (an earlier vote's edit, else the agent's).
    const shown = row.editedArguments ?? row.arguments;
    const original = shown === null ? null : (JSON.parse(shown) as Record<string, unknown>);
    const prepared = prepareEditedArguments({
      contract: resolved.contract.compiled,
      original,
      edited: options.arguments,
      userId: row.userId,
      sensitivePaths: sensitive,
    });
    if (!prepared.ok) {
      throw new AppError(
        'arguments_invalid',
        `The edited arguments do not pass ${row.tool}@${row.contractVersion}: ${prepared.issues.map((i) => i.code).join(', ')}.`,
        {
          errors: prepared.issues.map((issue) => ({
            code: issue.code,
            type: issue.type,
            path: issue.path,
            message: issue.message,
            details: issue.details,
          })),
        },
      );
    }
    // An "edit" that changes nothing is a plain approve.
    if (prepared.argsHash !== row.argsHash) {
      editedArgs = prepared.arguments;
      edit = {
        arguments: JSON.stringify(prepared.arguments),
        argsHash: prepared.argsHash,
        originalArgsHash: row.originalArgsHash ?? row.argsHash,
      };
    }
  }

  const votes = await db().approvalVote.findMany({ where: { approvalId: row.id, tenantId }, select: { approverId: true, decision: true } });
  if (options.decision === 'approve' && votes.some((vote) => vote.approverId === identity.approverId)) {
    throw new AppError('conflict', 'You already voted on this approval; each approver counts once.', { reason: 'already_voted' });
  }
  const approves = votes.filter((vote) => vote.decision === 'approve').length;
  const completes = options.decision === 'approve' && (edit ? 1 : approves + 1) >= Math.max(1, row.approversRequired);
  const plan: DecisionPlan = {
    tenantId,
    approvalId: row.id,
    action: options.decision,
    approverId: identity.approverId,
    comment: options.comment ?? null,
    now,
    seen: { argsHash: row.argsHash, escalationLevel: row.escalationLevel, approves },
    completes,
    edit,
    escalateTo,
    tokenTtlMs: TOKEN_TTL_MS,
  };

  const decision = options.decision === 'deny' ? 'denied' : options.decision === 'escalate' ? 'escalated' : completes ? 'approved' : 'vote';
  const input: EvidenceInput = {
    tenantId,
    kind: 'approval_decision',
    requestId: options.requestId,
    recordId: options.firstRecordId?.take(),
    traceId: row.traceId,
    callId: row.callId,
    apiKeyId: approver.kind === 'api_key' ? approver.apiKeyId : null,
    actorUserId: approver.kind === 'session' ? approver.userId : null,
    tool: row.tool,
    contractVersion: row.contractVersion,
    contractHash: resolved.found ? resolved.contract.contentHash : null,
    // The agent's call, as in its `pre` record (which keeps its arguments); an edit's hash is in
    // `policy.transformed`, the edited arguments themselves a raw payload, with retention only.
    argsHash: row.originalArgsHash ?? row.argsHash,
    arguments: null,
    payload: settings.storeRawArguments && editedArgs ? retainedPayloadJson({ transformed_arguments: editedArgs }, sensitive) : null,
    decision,
    valid: true,
    errors: [],
    warnings: [],
    durationMs: 0,
    policyId: row.policyId,
    policyVersion: row.policyVersion,
    policyRule: row.policyRule,
    policy: editEvidence(row, edit, identity.approverId),
  };
  const recorded = await recordEvidence(input, (tx) => applyApprovalDecision(tx, plan));
  notifyApprovalChanged(row.id);
  const updated = recorded.extra;
  return {
    id: updated.id,
    status: updated.status,
    outcome: approvalOutcome(updated.status),
    decided_at: updated.decidedAt?.toISOString() ?? null,
    comment: updated.comment,
    approvals: await db().approvalVote.count({ where: { approvalId: row.id, tenantId, decision: 'approve' } }),
    approvers_required: updated.approversRequired,
    approver_roles: approverRolesOf(updated.approverRoles),
    escalation_level: updated.escalationLevel,
    edited: updated.editedArguments !== null,
  };
}

/**
 * Both versions of an edited call in the decision's evidence, in the policy layer's own shape
 * for rewritten arguments (`transformed`: the edited hash and the original hash; the edited
 * arguments are a raw payload, outside the hashed JSON): an approver's edit is a transform.
 */
function editEvidence(row: Approval, edit: DecisionPlan['edit'], approverId: string): string | null {
  const argsHash = edit?.argsHash ?? (row.editedArguments !== null ? row.argsHash : null);
  if (argsHash === null) return null;
  const evidence: PolicyEvidence = {
    decision: 'transform',
    reason: `arguments edited by approver ${edit ? approverId : 'in an earlier vote'}`,
    decided_by: row.policyId ? { policy_id: row.policyId, version: row.policyVersion ?? '', rule: row.policyRule ?? 'approval' } : null,
    evaluated: [],
    transformed: { args_hash: argsHash, original_args_hash: row.originalArgsHash ?? row.argsHash },
    approval: {
      roles: approverRolesOf(row.approverRoles),
      approvers_required: row.approversRequired,
      expires_in_seconds: null,
      escalated: row.escalationLevel > 0,
    },
    duration_ms: 0,
  };
  return JSON.stringify(evidence);
}

interface ApproverIdentity {
  /** The vote key: one per person; a key nobody created counts as its own approver. */
  approverId: string;
  /** The person behind the decision, when known. */
  userId: string | null;
  apiKeyId: string | null;
}

async function approverIdentity(tenantId: string, approver: Approver): Promise<ApproverIdentity> {
  if (approver.kind === 'session') return { approverId: `user:${approver.userId}`, userId: approver.userId, apiKeyId: null };
  const key = await db().apiKey.findFirst({ where: { id: approver.apiKeyId, tenantId }, select: { createdById: true } });
  // A key created by a person votes as that person: N approvers are N people, not N keys.
  const userId = key?.createdById ?? null;
  return { approverId: userId ? `user:${userId}` : `api_key:${approver.apiKeyId}`, userId, apiKeyId: approver.apiKeyId };
}

/** The self-approval rule (lib/approvals/approver-rights.ts), which the queue also shows. */
async function assertNotRequester(row: Approval, identity: ApproverIdentity): Promise<void> {
  const requesting =
    identity.userId !== null && row.apiKeyId
      ? await db().apiKey.findFirst({ where: { id: row.apiKeyId, tenantId: row.tenantId }, select: { createdById: true } })
      : null;
  const relation = requesterRelation(
    { apiKeyId: row.apiKeyId, userId: row.userId, requestingKeyCreatorId: requesting?.createdById ?? null },
    identity,
  );
  if (relation) {
    const why = REQUESTER_REASONS[relation];
    throw new AppError('self_approval', `You cannot approve this call: ${why}. Another approver must decide it.`, { reason: why });
  }
}
