import { db, type Tx } from '../db';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import { NotFoundError } from '../errors';
import { recordAdminEvidence, type AdminActor } from '../evidence/record-admin-evidence';
import type { Role } from '../tenants/roles';
import { assertActorMayManage, assertAnotherAdmin, lockTenantMembers, retryOnStaleRead, StaleRead } from './tenant-member-lock';
import { toMemberSummary, type MemberSummary } from './list-members';
import type { FirstRecordId } from '../evidence/first-record-id';

export interface RoleChange {
  tenantId: string;
  membershipId: string;
  /** The role read before the transaction, which the evidence record states as the old one. */
  from: string;
  to: Role;
  actor: AdminActor;
}

/**
 * The change itself, under the tenant's member lock: the caller's record says `from`, so a role
 * changed meanwhile is a StaleRead. Exported so tests can race two of these in separate
 * transactions.
 */
export async function applyRoleChange(tx: Tx, change: RoleChange): Promise<void> {
  await lockTenantMembers(tx, change.tenantId);
  await assertActorMayManage(tx, change.tenantId, change.actor);
  const current = await tx.membership.findFirst({ where: { id: change.membershipId, tenantId: change.tenantId }, select: { role: true } });
  if (!current) throw new NotFoundError('Member', change.membershipId);
  if (current.role !== change.from) throw new StaleRead();
  if (change.from === 'admin' && change.to !== 'admin') await assertAnotherAdmin(tx, change.tenantId, change.membershipId);
  await tx.membership.update({ where: { id: change.membershipId }, data: { role: change.to } });
  // Their keys' admin and author scopes follow the role (lib/auth/api-keys.ts).
  await bumpChange(tx, 'api_keys');
}

/**
 * Gives a member another role. It applies from their next request: sessions read the
 * membership on every request. The tenant's last admin cannot be demoted (409 last_admin).
 * The same role again changes and records nothing.
 */
export async function changeMemberRole(options: {
  tenantId: string;
  membershipId: string;
  role: Role;
  actor: AdminActor;
  /** Why, when it is not an admin's own decision (e.g. `sso_groups`); kept in the record. */
  reason?: string;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<MemberSummary> {
  const { tenantId, membershipId, role, actor } = options;
  return retryOnStaleRead(async () => {
    const membership = await db().membership.findFirst({
      where: { id: membershipId, tenantId },
      include: { user: { select: { email: true, name: true } } },
    });
    if (!membership) throw new NotFoundError('Member', membershipId);
    if (membership.role === role) return toMemberSummary(membership);
    await recordAdminEvidence(
      {
        tenantId,
        kind: 'membership',
        action: 'member_role_changed',
        actor,
        requestId: options.requestId,
        firstRecordId: options.firstRecordId,
        details: {
          membership_id: membershipId,
          user_id: membership.userId,
          email: membership.user.email,
          old_role: membership.role,
          new_role: role,
          ...(options.reason ? { reason: options.reason } : {}),
        },
      },
      (tx) => applyRoleChange(tx, { tenantId, membershipId, from: membership.role, to: role, actor }),
    );
    notifyLocalChange('api_keys');
    return toMemberSummary({ ...membership, role });
  });
}
