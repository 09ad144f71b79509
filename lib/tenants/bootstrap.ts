import { db } from '../db';
import { env, publicBaseUrl } from '../env';
import { createApiKey } from '../auth/api-keys';
import { passwordProblem } from '../auth/password-policy';
import { DemoSeedIncompleteError, demoTenantLines, seedDemoTenant } from '../seed/demo-tenant';
import { createTenantUnlessTaken, TENANT_SLUG_PATTERN } from './create-tenant';
import { addMember } from './add-member';

export interface BootstrapReport {
  created: 'init' | 'demo' | null;
  lines: string[];
  /** Why the demo tenant is incomplete (its sign-in and key exist and are in `lines`); start-up reports it and stops. */
  incomplete?: string;
  /** Why TOOLGATE_INIT_* cannot make its tenant (nothing was made); start-up reports it and stops. */
  refused?: string;
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
    const refused = initProblem(e) ?? (await initPasswordProblem(e));
    if (refused) return { created: null, lines: [], refused };
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

  // Not refused: a deployment may drop TOOLGATE_INIT_TENANT once its tenant exists and leave the rest.
  const ignored = INIT_PARTS.filter((name) => e[name] !== undefined);
  const notes = ignored.length
    ? [`toolgate: TOOLGATE_INIT_TENANT is unset, so ${ignored.join(', ')} ${ignored.length === 1 ? 'is' : 'are'} ignored`]
    : [];
  if ((await db().tenant.count()) > 0) return { created: null, lines: notes };
  let seeded;
  try {
    seeded = await seedDemoTenant();
  } catch (error) {
    if (!(error instanceof DemoSeedIncompleteError)) throw error;
    return { created: 'demo', lines: [...notes, ...demoTenantLines(error.seed, publicBaseUrl())], incomplete: error.message };
  }
  // Another instance starting on the same empty database made it a moment ago; its sign-in is printed there.
  if (!seeded.created)
    return { created: null, lines: [...notes, 'toolgate: the demo tenant exists (another instance starting at the same time made it)'] };
  return { created: 'demo', lines: [...notes, ...demoTenantLines(seeded, publicBaseUrl())] };
}

/** The first admin's password meets the policy every other password does (lib/auth/password-policy.ts). */
async function initPasswordProblem(e: ReturnType<typeof env>): Promise<string | null> {
  if (!e.TOOLGATE_INIT_ADMIN_PASSWORD) return null;
  const weak = await passwordProblem(e.TOOLGATE_INIT_ADMIN_PASSWORD, { email: e.TOOLGATE_INIT_ADMIN_EMAIL });
  return weak ? `TOOLGATE_INIT_ADMIN_PASSWORD ${weak}` : null;
}

const INIT_PARTS = ['TOOLGATE_INIT_ADMIN_EMAIL', 'TOOLGATE_INIT_ADMIN_PASSWORD', 'TOOLGATE_INIT_API_KEY'] as const;

/**
 * Checked only when the tenant is about to be made (a deployment may keep TOOLGATE_INIT_TENANT
 * and drop the password once it exists): a slug no URL can name, a tenant no one could sign in to
 * or call, or half an admin, which would otherwise be made and then ignored.
 */
function initProblem(e: ReturnType<typeof env>): string | null {
  const slug = e.TOOLGATE_INIT_TENANT ?? '';
  if (!TENANT_SLUG_PATTERN.test(slug))
    return `TOOLGATE_INIT_TENANT ${JSON.stringify(slug.slice(0, 80))} is not a slug: lowercase letters, digits and inner hyphens, at most 63 characters`;
  if ((e.TOOLGATE_INIT_ADMIN_EMAIL === undefined) !== (e.TOOLGATE_INIT_ADMIN_PASSWORD === undefined))
    return `TOOLGATE_INIT_ADMIN_EMAIL and TOOLGATE_INIT_ADMIN_PASSWORD are set together; ${e.TOOLGATE_INIT_ADMIN_EMAIL === undefined ? 'TOOLGATE_INIT_ADMIN_EMAIL' : 'TOOLGATE_INIT_ADMIN_PASSWORD'} is missing`;
  if (INIT_PARTS.every((name) => e[name] === undefined))
    return `TOOLGATE_INIT_TENANT alone would make a tenant no one can sign in to or call; set TOOLGATE_INIT_ADMIN_EMAIL and TOOLGATE_INIT_ADMIN_PASSWORD, TOOLGATE_INIT_API_KEY, or both`;
  return null;
}
