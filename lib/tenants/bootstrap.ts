import { db } from '../db';
import { env, publicBaseUrl } from '../env';
import { createApiKey } from '../auth/api-keys';
import { DemoSeedIncompleteError, demoTenantLines, seedDemoTenant } from '../seed/demo-tenant';
import { createTenantUnlessTaken } from './create-tenant';
import { addMember } from './add-member';

export interface BootstrapReport {
  created: 'init' | 'demo' | null;
  lines: string[];
  /** Why the demo tenant is incomplete (its sign-in and key exist and are in `lines`); start-up reports it and stops. */
  incomplete?: string;
}

/**
 * Every start (headless installs included). With TOOLGATE_INIT_TENANT set: creates that tenant
 * when no tenant has its slug, whatever other tenants exist, with the admin and key the other
 * TOOLGATE_INIT_* name; once the slug exists the variables are ignored (nothing is updated).
 * Without it: a database with no tenant at all gets the demo tenant (lib/seed/demo-tenant.ts),
 * and its sign-in details are printed this once.
 */
export async function bootstrap(): Promise<BootstrapReport> {
  const e = env();
  if (e.TOOLGATE_INIT_TENANT) {
    const exists = { created: null, lines: [`toolgate: tenant "${e.TOOLGATE_INIT_TENANT}" exists; TOOLGATE_INIT_* ignored`] };
    if (await db().tenant.findUnique({ where: { slug: e.TOOLGATE_INIT_TENANT }, select: { id: true } })) return exists;
    const tenant = await createTenantUnlessTaken({ slug: e.TOOLGATE_INIT_TENANT });
    if (!tenant) return exists;
    const lines = [`toolgate: created tenant "${tenant.slug}"`];
    if (e.TOOLGATE_INIT_ADMIN_EMAIL && e.TOOLGATE_INIT_ADMIN_PASSWORD) {
      await addMember({ tenantId: tenant.id, email: e.TOOLGATE_INIT_ADMIN_EMAIL, password: e.TOOLGATE_INIT_ADMIN_PASSWORD, role: 'admin' });
      lines.push(`toolgate: created admin ${e.TOOLGATE_INIT_ADMIN_EMAIL}`);
    }
    if (e.TOOLGATE_INIT_API_KEY) {
      const { apiKey } = await createApiKey({
        tenantId: tenant.id,
        name: 'init key',
        scopes: ['validate', 'admin'],
        value: e.TOOLGATE_INIT_API_KEY,
      });
      lines.push(`toolgate: created API key ${apiKey.prefix}… (validate, admin)`);
    }
    return { created: 'init', lines };
  }

  if ((await db().tenant.count()) > 0) return { created: null, lines: [] };
  let seeded;
  try {
    seeded = await seedDemoTenant();
  } catch (error) {
    if (!(error instanceof DemoSeedIncompleteError)) throw error;
    return { created: 'demo', lines: demoTenantLines(error.seed, publicBaseUrl()), incomplete: error.message };
  }
  if (!seeded.created) return { created: null, lines: [] };
  return { created: 'demo', lines: demoTenantLines(seeded, publicBaseUrl()) };
}
