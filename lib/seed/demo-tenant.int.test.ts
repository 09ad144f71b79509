import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { bootstrap } from '@/lib/tenants/bootstrap';
import { createTenant, createTenantUnlessTaken } from '@/lib/tenants/create-tenant';
import { DEMO_ADMIN_EMAIL, seedDemoTenant } from './demo-tenant';

async function withInit<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, vars);
  resetEnvForTests();
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(vars)) delete process.env[key];
    resetEnvForTests();
  }
}

describe('seeds', () => {
  it('TOOLGATE_INIT_* creates its tenant even when other tenants exist, and changes nothing once it exists', async () => {
    await createTenant({ slug: 'someone-else' });
    const vars = {
      TOOLGATE_INIT_TENANT: 'headless',
      TOOLGATE_INIT_ADMIN_EMAIL: 'ops@headless.test',
      TOOLGATE_INIT_ADMIN_PASSWORD: 'headless-password',
    };
    const first = await withInit(vars, bootstrap);
    expect(first).toEqual({ created: 'init', lines: ['toolgate: created tenant "headless"', 'toolgate: created admin ops@headless.test'] });
    const again = await withInit({ ...vars, TOOLGATE_INIT_ADMIN_EMAIL: 'other@headless.test' }, bootstrap);
    expect(again).toEqual({ created: null, lines: ['toolgate: tenant "headless" exists; TOOLGATE_INIT_* ignored'] });
    expect(await db().membership.count({ where: { tenant: { slug: 'headless' } } })).toBe(1);
    // Without TOOLGATE_INIT_*, a database that has tenants gets no demo tenant.
    expect(await bootstrap()).toEqual({ created: null, lines: [] });
    expect(await db().tenant.count({ where: { slug: 'demo' } })).toBe(0);
  });

  it('TOOLGATE_INIT_* that would make an unreachable tenant, a bad slug or half an admin is refused, making nothing; checked only at creation', async () => {
    const refusals: [Record<string, string>, string][] = [
      [
        { TOOLGATE_INIT_TENANT: 'lonely' },
        'TOOLGATE_INIT_TENANT alone would make a tenant no one can sign in to or call; set TOOLGATE_INIT_ADMIN_EMAIL and TOOLGATE_INIT_ADMIN_PASSWORD, TOOLGATE_INIT_API_KEY, or both',
      ],
      [
        { TOOLGATE_INIT_TENANT: 'half', TOOLGATE_INIT_ADMIN_EMAIL: 'ops@half.test', TOOLGATE_INIT_API_KEY: 'an-init-key-of-twenty-chars' },
        'TOOLGATE_INIT_ADMIN_EMAIL and TOOLGATE_INIT_ADMIN_PASSWORD are set together; TOOLGATE_INIT_ADMIN_PASSWORD is missing',
      ],
      [
        { TOOLGATE_INIT_TENANT: 'Acme Corp', TOOLGATE_INIT_API_KEY: 'an-init-key-of-twenty-chars' },
        'TOOLGATE_INIT_TENANT "Acme Corp" is not a slug: lowercase letters, digits and inner hyphens, at most 63 characters',
      ],
      [
        { TOOLGATE_INIT_TENANT: 'common', TOOLGATE_INIT_ADMIN_EMAIL: 'ops@common.test', TOOLGATE_INIT_ADMIN_PASSWORD: 'Password1' },
        'TOOLGATE_INIT_ADMIN_PASSWORD is one of the most commonly used passwords; choose a longer or less predictable one',
      ],
      [
        { TOOLGATE_INIT_TENANT: 'mirror', TOOLGATE_INIT_ADMIN_EMAIL: 'ops@mirror.test', TOOLGATE_INIT_ADMIN_PASSWORD: 'OPS@mirror.test' },
        'TOOLGATE_INIT_ADMIN_PASSWORD must not be your email address',
      ],
    ];
    for (const [vars, refused] of refusals) expect(await withInit(vars, bootstrap)).toEqual({ created: null, lines: [], refused });
    expect(await db().tenant.count({ where: { slug: { in: ['lonely', 'half', 'Acme Corp', 'common', 'mirror'] } } })).toBe(0);
    expect(await db().user.count({ where: { email: { in: ['ops@common.test', 'ops@mirror.test'] } } })).toBe(0);

    // Made with all it needs, the tenant then starts with TOOLGATE_INIT_TENANT alone (the password dropped from the deployment).
    await withInit({ TOOLGATE_INIT_TENANT: 'kept', TOOLGATE_INIT_API_KEY: 'an-init-key-of-twenty-chars' }, bootstrap);
    expect(await withInit({ TOOLGATE_INIT_TENANT: 'kept' }, bootstrap)).toEqual({
      created: null,
      lines: ['toolgate: tenant "kept" exists; TOOLGATE_INIT_* ignored'],
    });
    // The rest without the tenant: ignored, and said so.
    expect(await withInit({ TOOLGATE_INIT_API_KEY: 'an-init-key-of-twenty-chars' }, bootstrap)).toEqual({
      created: null,
      lines: ['toolgate: TOOLGATE_INIT_TENANT is unset, so TOOLGATE_INIT_API_KEY is ignored'],
    });
  });

  it('instances started together with the same TOOLGATE_INIT_TENANT create it once, and none of them fails', async () => {
    const vars = {
      TOOLGATE_INIT_TENANT: 'together',
      TOOLGATE_INIT_ADMIN_EMAIL: 'ops@together.test',
      TOOLGATE_INIT_ADMIN_PASSWORD: 'together-pw',
    };
    const reports = await withInit(vars, () => Promise.all([bootstrap(), bootstrap(), bootstrap()]));
    expect(reports.map((r) => r.created).sort()).toEqual(['init', null, null]);
    for (const r of reports.filter((r) => !r.created))
      expect(r.lines).toEqual(['toolgate: tenant "together" exists; TOOLGATE_INIT_* ignored']);
    expect(await db().membership.count({ where: { tenant: { slug: 'together' } } })).toBe(1);
    expect(await createTenantUnlessTaken({ slug: 'together' })).toBeNull();
  });

  it('the demo tenant keeps arguments for 30 days, has its admin, keys and published contracts, and is seeded once', async () => {
    // Two instances started together on an empty database: one seeds it, the other goes on.
    const both = await Promise.all([seedDemoTenant({ password: 'demo-password-for-test' }), seedDemoTenant({ password: 'other' })]);
    const seeded = both.find((s) => s.created)!;
    expect(both.filter((s) => s.created)).toHaveLength(1);
    expect(both.find((s) => !s.created)).toEqual({ created: false, tenantId: seeded.tenantId });
    expect(seeded).toMatchObject({
      created: true,
      email: DEMO_ADMIN_EMAIL,
      password: expect.stringMatching(/^(demo-password-for-test|other)$/),
      apiKey: expect.stringMatching(/^tg_/),
    });
    const tenant = await db().tenant.findUniqueOrThrow({
      where: { slug: 'demo' },
      include: { contracts: true, memberships: true, apiKeys: true },
    });
    expect(tenant).toMatchObject({ name: 'Demo tenant', storeRawArguments: true, retentionDays: 30 });
    expect(tenant.contracts.map((c) => c.name).sort()).toEqual([
      'cart.begin_checkout',
      'orders.lookup',
      'payments.refund',
      'support.issue_credit',
    ]);
    expect(tenant.contracts.every((c) => c.latestVersionId !== null)).toBe(true);
    expect(tenant.memberships.map((m) => m.role)).toEqual(['admin']);
    // The key printed for the person trying the demo, and the support agent's (its calls of the last week).
    expect(tenant.apiKeys.map((k) => [k.name, k.scopes]).sort()).toEqual([
      ['demo agent key', 'validate admin'],
      ['support agent', 'validate'],
    ]);
    expect(await seedDemoTenant()).toEqual({ created: false, tenantId: tenant.id });
    expect(await db().contract.count({ where: { tenantId: tenant.id } })).toBe(4);
  });
});
