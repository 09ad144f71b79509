import { dbProvider, type Tx } from '../db';
import { AppError } from '../errors';
import type { AdminActor } from '../evidence/record-admin-evidence';
import { can, isRole } from '../tenants/roles';

/**
 * Serialises membership changes of one tenant, so "is there another admin?" and the change it
 * guards are one step: two admins demoting each other at the same moment on two instances must
 * not both see the other still in place. PostgreSQL: a row lock on the tenant (`NO KEY UPDATE`,
 * which evidence inserts referencing the tenant do not wait for). SQLite: a write first, which
 * takes the database's single write lock before anything is read.
 */
export async function lockTenantMembers(tx: Tx, tenantId: string): Promise<void> {
  if (dbProvider() === 'postgresql') await tx.$queryRaw`SELECT "id" FROM "Tenant" WHERE "id" = ${tenantId} FOR NO KEY UPDATE`;
  // A non-key column: rewriting the id would run the foreign keys' ON UPDATE actions.
  else await tx.$executeRaw`UPDATE "Tenant" SET "name" = "name" WHERE "id" = ${tenantId}`;
}

/**
 * Under the lock: a person whose own admin role was taken away while their request waited no
 * longer acts as admin. API keys and the CLI are checked when the request starts.
 */
export async function assertActorMayManage(tx: Tx, tenantId: string, actor: AdminActor): Promise<void> {
  if (actor.kind !== 'user') return;
  const own = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId, userId: actor.userId } }, select: { role: true } });
  if (!own || !isRole(own.role) || !can(own.role, 'manage_members')) {
    throw new AppError('forbidden', 'You are no longer an admin of this tenant.', { role: own?.role ?? null });
  }
}

/** Under the lock: refuses a change that would leave the tenant with no admin. */
export async function assertAnotherAdmin(tx: Tx, tenantId: string, membershipId: string): Promise<void> {
  const others = await tx.membership.count({ where: { tenantId, role: 'admin', id: { not: membershipId } } });
  if (others === 0) {
    throw new AppError('last_admin', "This is the tenant's last admin: make someone else admin first, then demote or remove this person.", {
      membership_id: membershipId,
    });
  }
}

/**
 * The record of a change states what was there before; that is read before the transaction
 * (records are written with their details fixed). If it changed before the lock was taken,
 * the attempt throws this and is made again on what is there now.
 */
export class StaleRead extends Error {
  constructor() {
    super('membership state changed before the lock was taken');
    this.name = 'StaleRead';
  }
}

export async function retryOnStaleRead<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StaleRead)) throw error;
      if (tries >= 3) throw new AppError('conflict', 'The member list is changing right now; try again.');
    }
  }
}
