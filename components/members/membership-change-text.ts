import type { MembershipChange } from '@/lib/members/list-membership-changes';

const text = (value: unknown) => (typeof value === 'string' ? value : '?');

/** One sentence per membership record, after its actor's name. */
export function describeMembershipChange(change: MembershipChange): string {
  const d = change.details;
  switch (change.action) {
    case 'member_invited':
      return `invited ${text(d.email)} as ${text(d.role)}`;
    case 'invitation_revoked':
      return `revoked the invitation for ${text(d.email)}`;
    case 'invitation_accepted':
      return `accepted the invitation and joined as ${text(d.role)}`;
    case 'member_role_changed':
      return `changed ${text(d.email)} from ${text(d.old_role)} to ${text(d.new_role)}${d.reason === 'sso_groups' ? ' (groups from the identity provider)' : ''}`;
    case 'member_removed':
      return `removed ${text(d.email)} (${text(d.role)})`;
    default:
      return change.action;
  }
}
