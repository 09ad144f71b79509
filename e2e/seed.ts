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

/**
 * Makes the e2e tenant retain call arguments in its evidence (on or off) and, when `agentKey`
 * is asked for, creates a `validate` key for an agent. A key caches the tenant's setting when
 * it is first used, so calls that must be recorded with their arguments use a key created
 * after the setting changed.
 */
export async function seedArgumentRetention(options: { retain: boolean; agentKey?: string }): Promise<string | undefined> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { db, disconnectDb } = await import('../lib/db');
  const { createApiKey } = await import('../lib/auth/api-keys');
  const tenant = await db().tenant.update({ where: { slug: E2E_TENANT }, data: { storeRawArguments: options.retain } });
  const key = options.agentKey ? (await createApiKey({ tenantId: tenant.id, name: options.agentKey, scopes: ['validate'] })).key : undefined;
  await disconnectDb();
  return key;
}
