import { db, type Tx } from '../db';
import { bumpChange, notifyLocalChange } from '../cache/change-feed';
import { NotFoundError } from '../errors';
import { recordAdminEvidence, type AdminActor } from '../evidence/record-admin-evidence';
import { assertActorMayManage, assertAnotherAdmin, lockTenantMembers, retryOnStaleRead, StaleRead } from './tenant-member-lock';
import type { FirstRecordId } from '../evidence/first-record-id';

export interface Removal {
  tenantId: string;
  membershipId: string;
  /** The role read before the transaction, which the evidence record states. */
  role: string;
  actor: AdminActor;
}

/**
 * Under the tenant's member lock: deletes the membership and, when the person belongs to no
 * other tenant, their Better Auth sessions. Returns how many sessions ended.
 */
export async function applyRemoval(tx: Tx, removal: Removal): Promise<number> {
  await lockTenantMembers(tx, removal.tenantId);
  await assertActorMayManage(tx, removal.tenantId, removal.actor);
  const current = await tx.membership.findFirst({
    where: { id: removal.membershipId, tenantId: removal.tenantId },
    select: { role: true, userId: true },
  });
  if (!current) throw new NotFoundError('Member', removal.membershipId);
  if (current.role !== removal.role) throw new StaleRead();
  if (current.role === 'admin') await assertAnotherAdmin(tx, removal.tenantId, removal.membershipId);
  await tx.membership.delete({ where: { id: removal.membershipId } });
  // Their keys' admin and author scopes end with the membership (lib/auth/api-keys.ts).
  await bumpChange(tx, 'api_keys');
  // Sessions already stop acting in this tenant, since every request reads the membership; a
  // person left with no tenant at all is signed out everywhere.
  if ((await tx.membership.count({ where: { userId: current.userId } })) > 0) return 0;
  return (await tx.session.deleteMany({ where: { userId: current.userId } })).count;
}

/**
 * Removes a person from the tenant, effective at their next request. The tenant's last admin
 * cannot be removed (409 last_admin). Their user account stays (they may belong elsewhere, and
 * evidence names them).
 */
export async function removeMember(options: {
  tenantId: string;
  membershipId: string;
  actor: AdminActor;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<{ id: string; userId: string; email: string; role: string; sessionsEnded: number }> {
  const { tenantId, membershipId, actor } = options;
  return retryOnStaleRead(async () => {
    const membership = await db().membership.findFirst({
      where: { id: membershipId, tenantId },
      include: { user: { select: { email: true } } },
    });
    if (!membership) throw new NotFoundError('Member', membershipId);
    const { extra: sessionsEnded } = await recordAdminEvidence(
      {
        tenantId,
        kind: 'membership',
        action: 'member_removed',
        actor,
        requestId: options.requestId,
        firstRecordId: options.firstRecordId,
        details: { membership_id: membershipId, user_id: membership.userId, email: membership.user.email, role: membership.role },
      },
      (tx) => applyRemoval(tx, { tenantId, membershipId, role: membership.role, actor }),
    );
    notifyLocalChange('api_keys');
    return { id: membershipId, userId: membership.userId, email: membership.user.email, role: membership.role, sessionsEnded };
  });
}
