import { randomBytes } from 'node:crypto';
import { db } from '../db';
import { env } from '../env';
import { createApiKey } from '../auth/api-keys';
import { publicBaseUrl } from '../auth/auth';
import { EXAMPLE_CONTRACTS } from '../contracts/examples';
import { saveContractDraft } from '../contracts/save-contract-draft';
import { publishContractVersion } from '../contracts/publish-contract-version';
import { createTenant } from './create-tenant';
import { addMember } from './add-member';

export interface BootstrapReport {
  created: 'init' | 'demo' | null;
  lines: string[];
}

/**
 * First start. With TOOLGATE_INIT_* set, creates that tenant, its admin and its key unless the
 * tenant exists (then the variables are ignored). Without them, an empty database gets a demo
 * tenant with example contracts, and the sign-in details are printed this once.
 */
export async function bootstrap(): Promise<BootstrapReport> {
  const e = env();
  if (e.TOOLGATE_INIT_TENANT) {
    const existing = await db().tenant.findUnique({ where: { slug: e.TOOLGATE_INIT_TENANT } });
    if (existing) return { created: null, lines: [`toolgate: tenant "${existing.slug}" exists; TOOLGATE_INIT_* ignored`] };
    const tenant = await createTenant({ slug: e.TOOLGATE_INIT_TENANT });
    const lines = [`toolgate: created tenant "${tenant.slug}"`];
    if (e.TOOLGATE_INIT_ADMIN_EMAIL && e.TOOLGATE_INIT_ADMIN_PASSWORD) {
      await addMember({ tenantId: tenant.id, email: e.TOOLGATE_INIT_ADMIN_EMAIL, password: e.TOOLGATE_INIT_ADMIN_PASSWORD, role: 'admin' });
      lines.push(`toolgate: created admin ${e.TOOLGATE_INIT_ADMIN_EMAIL}`);
    }
    if (e.TOOLGATE_INIT_API_KEY) {
      const { apiKey } = await createApiKey({ tenantId: tenant.id, name: 'init key', scopes: ['validate', 'admin'], value: e.TOOLGATE_INIT_API_KEY });
      lines.push(`toolgate: created API key ${apiKey.prefix}… (validate, admin)`);
    }
    return { created: 'init', lines };
  }

  if ((await db().tenant.count()) > 0) return { created: null, lines: [] };

  const tenant = await createTenant({ slug: 'demo', name: 'Demo tenant' });
  const email = 'admin@demo.toolgate.local';
  const password = randomBytes(9).toString('base64url');
  await addMember({ tenantId: tenant.id, email, password, role: 'admin', name: 'Demo admin' });
  const { key } = await createApiKey({ tenantId: tenant.id, name: 'demo agent key', scopes: ['validate', 'admin'] });
  for (const document of EXAMPLE_CONTRACTS) {
    await saveContractDraft({ tenantId: tenant.id, document });
    await publishContractVersion({ tenantId: tenant.id, tool: document.id, version: document.version, changeNote: 'demo contract' });
  }
  const base = publicBaseUrl();
  const body = JSON.stringify({ tool: 'orders.lookup', call_id: 'demo-1', arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' }, context: { tenant_id: 'acme', user_id: 'u_1' } });
  return {
    created: 'demo',
    lines: [
      '',
      'Toolgate demo tenant created. This is shown once; keep it.',
      `  Sign in:  ${base}/sign-in  as ${email} / ${password}`,
      `  API key:  ${key}`,
      '  Validate a call:',
      `  curl -s ${base}/api/v1/validate/pre -H 'authorization: Bearer ${key}' -H 'content-type: application/json' -d '${body}'`,
      '',
    ],
  };
}
