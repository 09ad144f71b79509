import { isHighestQueue } from './approver-rights';
import { isStorableText } from '../stored-text';

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

/**
 * An approval's approver roles as stored: space-separated (empty: any approver), as they always
 * were. Role names come from published documents, where any string is one: a role with a space
 * came back as two roles, so the approval never covered its own call (a new one was queued on
 * every retry and an approved one never redeemed), and one with a NUL failed the call on
 * PostgreSQL. Roles that would not come back as written are stored as a JSON array instead.
 */
export function storedApproverRoles(roles: readonly string[]): string {
  return roles.every((role) => PLAIN_ROLE.test(role) && isStorableText(role)) ? roles.join(' ') : JSON.stringify(roles);
}

/** No whitespace, and not starting with `[` (which marks the JSON form). */
const PLAIN_ROLE = /^[^\s[]\S*$/;

/** An approval's approver roles as storedApproverRoles wrote them. */
export function approverRolesOf(stored: string): string[] {
  if (stored.startsWith('[')) {
    try {
      const roles: unknown = JSON.parse(stored);
      if (Array.isArray(roles) && roles.every((role) => typeof role === 'string')) return roles as string[];
    } catch {
      // Not JSON after all: read as the space-separated form.
    }
  }
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
