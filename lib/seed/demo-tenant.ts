import { randomBytes } from 'node:crypto';
import { db } from '../db';
import { createApiKey } from '../auth/api-keys';
import { createTenantUnlessTaken } from '../tenants/create-tenant';
import { addMember } from '../tenants/add-member';
import { DEMO_DAYS } from './demo-calls';
import { publishDemoDocuments } from './seed-demo-documents';
import { seedDemoCalls, type DemoCallsReport } from './seed-demo-calls';

export const DEMO_TENANT_SLUG = 'demo';
export const DEMO_ADMIN_EMAIL = 'admin@demo.toolgate.local';

export const DEMO_AGENT_KEY_NAME = 'support agent';

export type DemoTenantSeed =
  | { created: false; tenantId: string }
  | { created: true; tenantId: string; email: string; password: string; apiKey: string; calls: DemoCallsReport | null };

const HOUR = 3600_000;

/**
 * The demo tenant, lived in: an admin with a random password, a key to try calls with, the
 * example contracts and the demo's own (lib/seed/demo-documents.ts) published a week ago with
 * the policies and the support agent's surface, and the week of calls its support agent made
 * since (lib/seed/demo-calls.ts), made through the real decision path with their own key, so
 * every page has something to show. Argument retention is on (30 days), so the traces, the
 * approval queue and the impact preview show arguments. The first start, `npm run db:seed` and
 * the e2e helpers all seed it through here. Does nothing when a tenant with its slug exists.
 *
 * Run it before the process serves anything: the calls are made at their times in the past
 * (lib/seed/seed-clock.ts). It takes a few seconds.
 */
export async function seedDemoTenant(options: { password?: string } = {}): Promise<DemoTenantSeed> {
  const existing = await db().tenant.findUnique({ where: { slug: DEMO_TENANT_SLUG }, select: { id: true } });
  if (existing) return { created: false, tenantId: existing.id };
  const nowMs = Date.now();
  const tenant = await createTenantUnlessTaken({ slug: DEMO_TENANT_SLUG, name: 'Demo tenant', storeRawArguments: true, retentionDays: 30 });
  // Another instance started at the same moment is seeding it.
  if (!tenant) return { created: false, tenantId: (await db().tenant.findUniqueOrThrow({ where: { slug: DEMO_TENANT_SLUG } })).id };
  const password = options.password ?? randomBytes(9).toString('base64url');
  const { user } = await addMember({ tenantId: tenant.id, email: DEMO_ADMIN_EMAIL, password, role: 'admin', name: 'Demo admin' });
  const { key } = await createApiKey({ tenantId: tenant.id, name: 'demo agent key', scopes: ['validate', 'admin'] });
  const agent = await createApiKey({ tenantId: tenant.id, name: DEMO_AGENT_KEY_NAME, scopes: ['validate'] });
  const made = { created: true as const, tenantId: tenant.id, email: DEMO_ADMIN_EMAIL, password, apiKey: key };
  try {
    await publishDemoDocuments({ tenantId: tenant.id, authorUserId: user.id, atMs: nowMs - DEMO_DAYS * 24 * HOUR - 3 * HOUR });
    const calls = await seedDemoCalls({ tenantId: tenant.id, apiKeyId: agent.apiKey.id, approverUserId: user.id, nowMs });
    return { ...made, calls };
  } catch (error) {
    // The tenant, its admin and key are committed and shown nowhere else: a failure past them
    // (a full disk) must not lose them, or the next start, finding the tenant, prints nothing.
    throw new DemoSeedIncompleteError({ ...made, calls: null }, error);
  }
}

/** The demo tenant was made with its sign-in and key, but its documents or calls were not added. */
export class DemoSeedIncompleteError extends Error {
  constructor(
    readonly seed: Extract<DemoTenantSeed, { created: true }>,
    cause: unknown,
  ) {
    super(`the demo tenant's contracts, policies and calls could not be added: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'DemoSeedIncompleteError';
  }
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
    "  It holds a week of its support agent's calls, three policies and a credit waiting for approval.",
    `  Sign in:  ${base}/sign-in  as ${seed.email} / ${seed.password}`,
    `            (change it under Your account, ${base}/account; lost it: npx toolgate members reset-password ${seed.email})`,
    `  API key:  ${seed.apiKey}`,
    '  Validate a call:',
    `  curl -s ${base}/api/v1/validate/pre -H 'authorization: Bearer ${seed.apiKey}' -H 'content-type: application/json' -d '${body}'`,
    '',
  ];
}
