import type { Tx } from '../db';
import { AppError } from '../errors';
import type { Approval } from '../generated/sqlite/client';
import { enqueueApprovalEvent } from './approval-webhook';
import { storedApproverRoles } from './approval-grant';

/** What one approver decided, checked and prepared outside the transaction (decide-approval.ts). */
export interface DecisionPlan {
  tenantId: string;
  approvalId: string;
  action: 'approve' | 'deny' | 'escalate';
  /** `user:<id>` or `api_key:<id>`: one vote per person (or per key nobody created). */
  approverId: string;
  comment: string | null;
  now: Date;
  /** The state the approver decided on. If it changed in between, the decision is a conflict. */
  seen: { argsHash: string; escalationLevel: number; approves: number };
  /** approve: whether this vote is the last one needed. */
  completes: boolean;
  edit: { arguments: string; argsHash: string; originalArgsHash: string } | null;
  escalateTo: string[] | null;
  /** How long the token of an approved call stays redeemable. */
  tokenTtlMs: number;
}

/**
 * The transactional half of a decision, run inside the evidence transaction so the decision,
 * its evidence and its webhook commit together or not at all.
 *
 * The first statement is a conditional update of the approval row that matches only the state
 * the approver decided on (pending, not expired, same arguments, same escalation level). It
 * changes nothing, but it takes the row's write lock: a second decision on the same approval
 * waits for this transaction, then its own conditional update finds the new state, matches
 * nothing, and becomes a 409. Counting votes after that lock is what makes N distinct approvals
 * exact under concurrency (two approvers voting at once cannot both miss each other's vote).
 */
export async function applyApprovalDecision(tx: Tx, plan: DecisionPlan): Promise<Approval> {
  const where = { id: plan.approvalId, tenantId: plan.tenantId };
  const locked = await tx.approval.updateMany({
    where: {
      ...where,
      status: 'pending',
      expiresAt: { gt: plan.now },
      argsHash: plan.seen.argsHash,
      escalationLevel: plan.seen.escalationLevel,
    },
    data: { status: 'pending' },
  });
  if (locked.count !== 1) throw await explainConflict(tx, plan);

  const votes = await tx.approvalVote.findMany({ where: { approvalId: plan.approvalId, tenantId: plan.tenantId } });
  const mine = votes.find((vote) => vote.approverId === plan.approverId);

  if (plan.action === 'deny') {
    // Any one deny ends it. Someone who approved earlier may still deny: their vote changes.
    if (mine) await tx.approvalVote.update({ where: { id: mine.id }, data: { decision: 'deny', comment: plan.comment } });
    else
      await tx.approvalVote.create({
        data: {
          tenantId: plan.tenantId,
          approvalId: plan.approvalId,
          approverId: plan.approverId,
          decision: 'deny',
          comment: plan.comment,
          createdAt: plan.now,
        },
      });
    return settle(tx, plan, {
      status: 'denied',
      decidedAt: plan.now,
      decidedBy: plan.approverId,
      comment: plan.comment,
      arguments: null,
      context: null,
    });
  }

  if (plan.action === 'escalate') {
    // Votes cast for the lower role's queue do not count in the higher one's: they are kept in
    // the evidence, and the higher role's approvers vote afresh.
    await tx.approvalVote.deleteMany({ where: { approvalId: plan.approvalId, tenantId: plan.tenantId } });
    const row = await tx.approval.update({
      where: { id: plan.approvalId },
      data: {
        approverRoles: storedApproverRoles(plan.escalateTo ?? []),
        escalationLevel: plan.seen.escalationLevel + 1,
        escalatedAt: plan.now,
        comment: plan.comment,
      },
    });
    await enqueueApprovalEvent(tx, 'approval.pending', row);
    return row;
  }

  if (mine) throw new AppError('conflict', 'You already voted on this approval; each approver counts once.', { reason: 'already_voted' });
  const approves = votes.filter((vote) => vote.decision === 'approve').length;
  // Approvals of other arguments do not carry over to the edited ones.
  if (plan.edit) await tx.approvalVote.deleteMany({ where: { approvalId: plan.approvalId, tenantId: plan.tenantId } });
  else if (approves !== plan.seen.approves) {
    throw new AppError('conflict', 'Another approver voted at the same time; reload the approval and decide again.', { reason: 'changed' });
  }
  await tx.approvalVote.create({
    data: {
      tenantId: plan.tenantId,
      approvalId: plan.approvalId,
      approverId: plan.approverId,
      decision: 'approve',
      comment: plan.comment,
      createdAt: plan.now,
    },
  });
  // An approver's edit replaces a policy's rewrite too: the arguments are then the approver's.
  const edit = plan.edit
    ? {
        argsHash: plan.edit.argsHash,
        originalArgsHash: plan.edit.originalArgsHash,
        editedArguments: plan.edit.arguments,
        rewrittenBy: null,
      }
    : {};
  if (!plan.completes) return tx.approval.update({ where: { id: plan.approvalId }, data: edit });
  return settle(tx, plan, {
    ...edit,
    status: 'approved',
    decidedAt: plan.now,
    decidedBy: plan.approverId,
    comment: plan.comment,
    arguments: null,
    context: null,
    // From now on the deadline is the token's: an approved call must be made soon.
    expiresAt: new Date(plan.now.getTime() + plan.tokenTtlMs),
  });
}

async function settle(tx: Tx, plan: DecisionPlan, data: Parameters<Tx['approval']['update']>[0]['data']): Promise<Approval> {
  const row = await tx.approval.update({ where: { id: plan.approvalId }, data });
  await enqueueApprovalEvent(tx, 'approval.decided', row);
  return row;
}

async function explainConflict(tx: Tx, plan: DecisionPlan): Promise<AppError> {
  const row = await tx.approval.findFirst({ where: { id: plan.approvalId, tenantId: plan.tenantId } });
  if (!row) return new AppError('not_found', `approval "${plan.approvalId}" was not found`, { resource: 'approval', id: plan.approvalId });
  if (row.status === 'expired' || (row.status === 'pending' && row.expiresAt.getTime() <= plan.now.getTime())) {
    return new AppError('approval_expired', 'The approval expired before it was decided; undecided approvals are denied.', {
      status: 'expired',
    });
  }
  if (row.status !== 'pending')
    return new AppError('conflict', `The approval was already ${row.status}, by someone else first.`, {
      reason: 'already_decided',
      status: row.status,
    });
  if (row.escalationLevel !== plan.seen.escalationLevel)
    return new AppError('conflict', 'The approval was escalated meanwhile; reload it.', {
      reason: 'escalated',
      escalation_level: row.escalationLevel,
    });
  return new AppError('conflict', "The approval's arguments were edited meanwhile; reload it and decide on the new arguments.", {
    reason: 'edited',
  });
}
