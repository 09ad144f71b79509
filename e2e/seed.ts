import { E2E_TENANT } from './test-env';

/**
 * Adds a member to the e2e tenant through the same service the app uses. The database is the
 * run's scratch file, which the server has already migrated and bootstrapped.
 */
export async function seedMember(options: { email: string; password: string; role: 'viewer' | 'author' | 'approver' | 'admin' }): Promise<void> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  // Imported late so DATABASE_URL is set before the client is created.
  const { db, disconnectDb } = await import('../lib/db');
  const { addMember } = await import('../lib/tenants/add-member');
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: E2E_TENANT } });
  await addMember({ tenantId: tenant.id, ...options });
  await disconnectDb();
}
