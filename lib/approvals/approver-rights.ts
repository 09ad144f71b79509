import { can, type Role } from '../tenants/roles';
import type { ApprovalViewerRights } from './approval-queue-types';

/**
 * Who may do what with an approval: the rules decide-approval.ts enforces, as pure functions,
 * so the card tells the signed-in person why they cannot act with the same rules that would
 * refuse them, instead of the browser guessing.
 */

/**
 * Escalation moves an approval to the next role up. Tenant members decide with the roles in
 * lib/tenants/roles.ts, where `admin` is the only role above `approver`; roles a contract or
 * policy names that are not tenant roles can only be decided by admins anyway.
 */
export const ESCALATION_ROLE = 'admin';

/** How an approver is related to the call, when they are its requester (in the words of the 403). */
export const REQUESTER_REASONS = {
  requester_key: 'it was made with this API key',
  requester_end_user: 'it acts for you (context.user_id)',
  requester_key_creator: 'you created the API key that made it',
} as const;
export type RequesterRelation = keyof typeof REQUESTER_REASONS;

/**
 * The self-approval rule: the requester never approves its own call, not with the key that
 * made it, not as the end user the call acts for (context.user_id), and not as the person who
 * created the requesting key (through a session or through another key they created).
 * `approver.userId` is the person behind the approver: the session's user, or the creator of
 * the approving key.
 */
export function requesterRelation(
  call: { apiKeyId: string | null; userId: string | null; requestingKeyCreatorId: string | null },
  approver: { apiKeyId: string | null; userId: string | null },
): RequesterRelation | null {
  if (approver.apiKeyId !== null && approver.apiKeyId === call.apiKeyId) return 'requester_key';
  if (approver.userId === null) return null;
  if (approver.userId === call.userId) return 'requester_end_user';
  if (call.requestingKeyCreatorId !== null && call.requestingKeyCreatorId === approver.userId) return 'requester_key_creator';
  return null;
}

/** Who is looking: a signed-in member, or an (admin) API key and the person who created it. */
export type ApprovalViewer =
  { kind: 'session'; userId: string; role: Role } | { kind: 'api_key'; apiKeyId: string; createdById: string | null };

/** The vote key of a viewer: one per person; a key nobody created is its own approver. */
export function viewerApproverId(viewer: ApprovalViewer): string {
  if (viewer.kind === 'session') return `user:${viewer.userId}`;
  return viewer.createdById ? `user:${viewer.createdById}` : `api_key:${viewer.apiKeyId}`;
}

export function isHighestQueue(approverRoles: readonly string[]): boolean {
  return approverRoles.length === 1 && approverRoles[0] === ESCALATION_ROLE;
}

/**
 * What the viewer may do with one approval, and if something is out of reach, why, in the
 * order decide-approval.ts checks: settled or expired (nobody can act), the permission to
 * decide at all, a role the approval names (admins and admin keys decide anything), then for
 * approving only: the self-approval rule and an earlier approve vote. Deny stays open to the
 * requester and to someone who already approved; escalate too, below the highest queue.
 */
export function approverRights(options: {
  approval: {
    status: string;
    expiresAt: Date;
    approverRoles: readonly string[];
    apiKeyId: string | null;
    userId: string | null;
    requestingKeyCreatorId: string | null;
    votes: readonly { approverId: string; decision: string }[];
    approvals: number;
    approversRequired: number;
  };
  viewer: ApprovalViewer;
  now: Date;
}): ApprovalViewerRights {
  const { approval: a, viewer } = options;
  const none = (code: NonNullable<ApprovalViewerRights['cannot_decide_reason']>['code'], message: string): ApprovalViewerRights => ({
    can_decide: false,
    can_approve: false,
    can_escalate: false,
    cannot_decide_reason: { code, message },
  });

  if (a.status === 'expired' || (a.status === 'pending' && a.expiresAt.getTime() <= options.now.getTime())) {
    return none('expired', 'This approval expired before it was decided; undecided approvals are denied.');
  }
  if (a.status !== 'pending') return none('decided', `This approval is already ${a.status}.`);
  if (viewer.kind === 'session') {
    if (!can(viewer.role, 'decide_approvals'))
      return none('no_permission', `Deciding approvals needs the approver or admin role; your role is ${viewer.role}.`);
    if (viewer.role !== 'admin' && a.approverRoles.length > 0 && !a.approverRoles.includes(viewer.role)) {
      return none('role', `Deciding this call needs one of the roles: ${a.approverRoles.join(', ')}; your role is ${viewer.role}.`);
    }
  }

  const canEscalate = !isHighestQueue(a.approverRoles);
  const rather = canEscalate ? 'You may still deny it or escalate it.' : 'You may still deny it.';
  const relation = requesterRelation(
    { apiKeyId: a.apiKeyId, userId: a.userId, requestingKeyCreatorId: a.requestingKeyCreatorId },
    viewer.kind === 'session' ? { apiKeyId: null, userId: viewer.userId } : { apiKeyId: viewer.apiKeyId, userId: viewer.createdById },
  );
  if (relation) {
    return {
      can_decide: true,
      can_approve: false,
      can_escalate: canEscalate,
      cannot_decide_reason: {
        code: relation,
        message: `You cannot approve this call: ${REQUESTER_REASONS[relation]}. Another approver must approve it. ${rather}`,
      },
    };
  }
  const approverId = viewerApproverId(viewer);
  if (a.votes.some((vote) => vote.approverId === approverId)) {
    const waiting = Math.max(0, a.approversRequired - a.approvals);
    return {
      can_decide: true,
      can_approve: false,
      can_escalate: canEscalate,
      cannot_decide_reason: {
        code: 'already_voted',
        message: `You already approved this call; each approver counts once. It waits for ${waiting} more approval${waiting === 1 ? '' : 's'}. ${rather}`,
      },
    };
  }
  return { can_decide: true, can_approve: true, can_escalate: canEscalate, cannot_decide_reason: null };
}
