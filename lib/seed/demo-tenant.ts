import { randomBytes } from 'node:crypto';
import { db } from '../db';
import { createApiKey } from '../auth/api-keys';
import { EXAMPLE_CONTRACTS } from '../contracts/examples';
import { saveDocumentDraft } from '../documents/save-document-draft';
import { publishDocumentVersion } from '../documents/publish-document-version';
import { createTenant } from '../tenants/create-tenant';
import { addMember } from '../tenants/add-member';

export const DEMO_TENANT_SLUG = 'demo';
export const DEMO_ADMIN_EMAIL = 'admin@demo.toolgate.local';

export type DemoTenantSeed =
  { created: false; tenantId: string } | { created: true; tenantId: string; email: string; password: string; apiKey: string };

/**
 * The demo tenant: an admin with a random password, an agent key, the example contracts
 * published, and argument retention on (30 days) so the impact preview and the traces show
 * arguments from the first call. The first start, `npm run db:seed` and the e2e helpers all
 * seed it through here. Does nothing when a tenant with its slug exists.
 */
export async function seedDemoTenant(options: { password?: string } = {}): Promise<DemoTenantSeed> {
  const existing = await db().tenant.findUnique({ where: { slug: DEMO_TENANT_SLUG }, select: { id: true } });
  if (existing) return { created: false, tenantId: existing.id };
  const tenant = await createTenant({ slug: DEMO_TENANT_SLUG, name: 'Demo tenant', storeRawArguments: true, retentionDays: 30 });
  const password = options.password ?? randomBytes(9).toString('base64url');
  await addMember({ tenantId: tenant.id, email: DEMO_ADMIN_EMAIL, password, role: 'admin', name: 'Demo admin' });
  const { key } = await createApiKey({ tenantId: tenant.id, name: 'demo agent key', scopes: ['validate', 'admin'] });
  for (const document of EXAMPLE_CONTRACTS) {
    await saveDocumentDraft({ tenantId: tenant.id, kind: 'contract', document });
    await publishDocumentVersion({
      tenantId: tenant.id,
      kind: 'contract',
      id: document.id,
      version: document.version,
      changeNote: 'demo contract',
    });
  }
  return { created: true, tenantId: tenant.id, email: DEMO_ADMIN_EMAIL, password, apiKey: key };
}

/** What a person needs to try the demo: where to sign in, the key, and a call the demo allows. */
export function demoTenantLines(seed: Extract<DemoTenantSeed, { created: true }>, base: string): string[] {
  const body = JSON.stringify({
    tool: 'orders.lookup',
    call_id: 'demo-1',
    arguments: { tenant_id: 'acme', order_id: 'ord_a1b2c3' },
    context: { tenant_id: 'acme', user_id: 'u_1' },
  });
  return [
    '',
    'Toolgate demo tenant created. This is shown once; keep it.',
    `  Sign in:  ${base}/sign-in  as ${seed.email} / ${seed.password}`,
    `  API key:  ${seed.apiKey}`,
    '  Validate a call:',
    `  curl -s ${base}/api/v1/validate/pre -H 'authorization: Bearer ${seed.apiKey}' -H 'content-type: application/json' -d '${body}'`,
    '',
  ];
}
