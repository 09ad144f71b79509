import { AppError } from '../errors';
import { db } from '../db';
import { log } from '../log';
import { acceptInvitationsForEmail } from '../members/accept-invitation';
import { changeMemberRole } from '../members/change-member-role';
import type { Role } from '../tenants/roles';

export interface SsoSignInOutcome {
  /** Tenants joined by accepting invitations in this sign-in. */
  joined: { tenantId: string; role: Role }[];
  /** Memberships whose role the groups claim changed. */
  changed: { tenantId: string; from: string; to: Role }[];
  /** Memberships the person has now; 0 means they may not stay signed in. */
  memberships: number;
}

/**
 * What follows a successful SSO sign-in: every pending invitation for the person's email is
 * accepted (with the role their groups map to, when one does), and, when their groups map to a
 * role, their other memberships are set to it (recorded as a `member_role_changed` by `system`,
 * reason `sso_groups`). A tenant's last admin is never demoted this way: that change is skipped.
 * No mapped role leaves every role as invited or as an admin set it.
 */
export async function completeSsoSignIn(options: { userId: string; email: string; mappedRole: Role | null }): Promise<SsoSignInOutcome> {
  const { userId, mappedRole } = options;
  const joined = await acceptInvitationsForEmail({ userId, email: options.email, roleFor: mappedRole ? () => mappedRole : undefined });
  const changed: SsoSignInOutcome['changed'] = [];
  const memberships = await db().membership.findMany({ where: { userId }, select: { id: true, tenantId: true, role: true } });
  if (mappedRole) {
    for (const membership of memberships) {
      if (membership.role === mappedRole) continue;
      try {
        await changeMemberRole({
          tenantId: membership.tenantId,
          membershipId: membership.id,
          role: mappedRole,
          actor: { kind: 'system' },
          reason: 'sso_groups',
        });
        changed.push({ tenantId: membership.tenantId, from: membership.role, to: mappedRole });
      } catch (error) {
        // The last admin stays admin; a membership removed meanwhile is simply gone.
        if (error instanceof AppError && (error.code === 'last_admin' || error.code === 'not_found')) {
          log.warn('sso groups: role not changed', {
            tenant_id: membership.tenantId,
            user_id: userId,
            from: membership.role,
            to: mappedRole,
            reason: error.code,
          });
          continue;
        }
        throw error;
      }
    }
  }
  if (joined.length > 0 || changed.length > 0)
    log.info('sso sign-in', { user_id: userId, joined: joined.length, roles_changed: changed.length });
  return { joined, changed, memberships: memberships.length };
}
