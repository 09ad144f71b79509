import { E2E_TENANT } from './test-env';

/**
 * Adds a member to the e2e tenant through the same service the app uses. The database is the
 * run's scratch file, which the server has already migrated and bootstrapped.
 */
export async function seedMember(options: {
  email: string;
  password: string;
  role: 'viewer' | 'author' | 'approver' | 'admin';
}): Promise<void> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  // Imported late so DATABASE_URL is set before the client is created.
  const { db, disconnectDb } = await import('../lib/db');
  const { addMember } = await import('../lib/tenants/add-member');
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: E2E_TENANT } });
  await addMember({ tenantId: tenant.id, ...options });
  await disconnectDb();
}

/**
 * Turns argument retention on (30 days) or off for the e2e tenant through the settings service
 * the app uses, and, when `agentKey` is asked for, creates a `validate` key for an agent. The
 * running server applies the change at its next change poll (TOOLGATE_CACHE_POLL_MS, 1 s), to
 * keys old and new alike; this waits that long.
 */
export async function seedArgumentRetention(options: { retain: boolean; agentKey?: string }): Promise<string | undefined> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { db, disconnectDb } = await import('../lib/db');
  const { createApiKey } = await import('../lib/auth/api-keys');
  const { updateTenantSettings } = await import('../lib/tenants/tenant-settings');
  const { closeEvidenceWriter } = await import('../lib/evidence/record-evidence');
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: E2E_TENANT } });
  await updateTenantSettings({
    tenantId: tenant.id,
    patch: { argument_retention_days: options.retain ? 30 : null },
    actor: { kind: 'system' },
  });
  const key = options.agentKey
    ? (await createApiKey({ tenantId: tenant.id, name: options.agentKey, scopes: ['validate'] })).key
    : undefined;
  await closeEvidenceWriter();
  await disconnectDb();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return key;
}

/**
 * The demo tenant, exactly as the first start and `npm run db:seed` make it (lib/seed/demo-tenant.ts:
 * a week of its support agent's calls, its policies and surface, a credit waiting for approval),
 * in the e2e database, with a person made a member of it: an existing one (someone with two
 * tenants, who keeps their password), or a new one with `password`.
 */
export async function seedDemoTenantWithMember(member: {
  email: string;
  role: 'viewer' | 'author' | 'approver' | 'admin';
  password?: string;
}): Promise<void> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { disconnectDb } = await import('../lib/db');
  const { seedDemoTenant } = await import('../lib/seed/demo-tenant');
  const { addMember } = await import('../lib/tenants/add-member');
  const { closeEvidenceWriter } = await import('../lib/evidence/record-evidence');
  const demo = await seedDemoTenant();
  // An existing person keeps their password; addMember only adds the membership.
  await addMember({
    tenantId: demo.tenantId,
    email: member.email,
    password: member.password ?? 'unused-for-an-existing-person',
    role: member.role,
  });
  await closeEvidenceWriter();
  await disconnectDb();
}

/**
 * Another tenant beside the e2e one, with an existing person of the e2e tenant made a member
 * (the second membership: the e2e tenant stays their first) and an admin key of its own. The
 * same tenant again: its key is made anew.
 */
export async function seedSecondTenant(options: {
  slug: string;
  name: string;
  email: string;
  role: 'viewer' | 'author' | 'approver' | 'admin';
}): Promise<{ adminKey: string }> {
  process.env.DATABASE_URL = `file:${process.env.TOOLGATE_E2E_DATABASE}`;
  const { db, disconnectDb } = await import('../lib/db');
  const { createTenantUnlessTaken } = await import('../lib/tenants/create-tenant');
  const { addMember } = await import('../lib/tenants/add-member');
  const { createApiKey } = await import('../lib/auth/api-keys');
  const tenant =
    (await createTenantUnlessTaken({ slug: options.slug, name: options.name })) ??
    (await db().tenant.findUniqueOrThrow({ where: { slug: options.slug } }));
  const user = await db().user.findUniqueOrThrow({ where: { email: options.email } });
  const member = await db().membership.findUnique({ where: { tenantId_userId: { tenantId: tenant.id, userId: user.id } } });
  if (!member)
    await addMember({ tenantId: tenant.id, email: options.email, password: 'unused-for-an-existing-person', role: options.role });
  const { key } = await createApiKey({ tenantId: tenant.id, name: `${options.slug} admin key`, scopes: ['validate', 'admin'] });
  await disconnectDb();
  return { adminKey: key };
}
