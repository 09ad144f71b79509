import { isHighestQueue } from './approver-rights';

/** What an approval was given under: who could decide it, how many had to, and whether it was escalated. */
export interface ApprovalGrant {
  roles: string[];
  approversRequired: number;
  escalationLevel: number;
}

/** What a call needs now (the contract's and the policies' requirement, merged). */
export interface ApprovalNeed {
  roles: string[];
  approversRequired: number;
  escalated: boolean;
}

export type ApprovalShortfall = 'approvers_required' | 'roles' | 'escalation';

/** An approval's approver roles as stored (space-separated; empty: any approver). */
export function approverRolesOf(stored: string): string[] {
  return stored ? stored.split(' ') : [];
}

export function grantOf(row: { approverRoles: string; approversRequired: number; escalationLevel: number }): ApprovalGrant {
  return {
    roles: approverRolesOf(row.approverRoles),
    approversRequired: row.approversRequired,
    escalationLevel: row.escalationLevel,
  };
}

/**
 * Where an approval falls short of what the call needs now, or null when it covers it. An
 * approver may edit the arguments into a call a policy sends to admins, or a stricter policy may
 * be published between the approval and its use: the token is still a valid one, but the people
 * who gave it were not the people this call needs. Admins decide anything, so an approval only
 * admins could give covers any roles; otherwise every role that could give it must be one the
 * call accepts (an empty list accepts any approver).
 */
export function approvalShortfall(grant: ApprovalGrant, need: ApprovalNeed): ApprovalShortfall | null {
  if (grant.approversRequired < need.approversRequired) return 'approvers_required';
  if (isHighestQueue(grant.roles)) return null;
  if (need.roles.length > 0 && (grant.roles.length === 0 || grant.roles.some((role) => !need.roles.includes(role)))) return 'roles';
  if (need.escalated && grant.escalationLevel === 0) return 'escalation';
  return null;
}

export function describeGrant(grant: ApprovalGrant): string {
  const who = grant.roles.length ? grant.roles.join(', ') : 'any approver';
  return `${who}${grant.approversRequired > 1 ? `, ${grant.approversRequired} approvers` : ''}`;
}
