import { db, dbProvider } from '../db';
import { rollupBackfillSql } from './rollup-backfill';

/**
 * Recomputes one tenant's rollups from its evidence and violations, in one transaction. For
 * rows changed behind the writer's back (tests that backdate records, a repair after restoring
 * evidence from a backup); the writer keeps them current on its own.
 */
export async function rebuildRollups(options: { tenantId: string }): Promise<void> {
  const provider = dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite';
  await db().$transaction(async (tx) => {
    await tx.evidenceRollup.deleteMany({ where: { tenantId: options.tenantId } });
    await tx.violationRollup.deleteMany({ where: { tenantId: options.tenantId } });
    for (const statement of rollupBackfillSql(provider, { oneTenant: true })) await tx.$executeRawUnsafe(statement, options.tenantId);
  });
}
