import { beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { bootstrap } from '@/lib/tenants/bootstrap';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { listContractsHandler as listContracts } from '@/lib/api/handlers/contracts';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';

async function signIn(email: string, password: string) {
  const response = await authPost(
    new Request('http://localhost:3000/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { status: response.status, cookie };
}

function withEnv(vars: Record<string, string | undefined>, fn: () => Promise<void>) {
  return async () => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k];
    resetEnvForTests();
    try {
      await fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnvForTests();
    }
  };
}

describe('first start', () => {
  it(
    'creates the demo tenant with published example contracts on an empty database, once',
    withEnv({ TOOLGATE_INIT_TENANT: undefined }, async () => {
      const first = await bootstrap();
      expect(first.created).toBe('demo');
      const printed = first.lines.join('\n');
      expect(printed).toMatch(/API key: {2}tg_/);
      expect(printed).toContain('curl -s');
      // Where to change the printed password, and how to get back in without it.
      expect(printed).toContain('http://localhost:3000/account');
      expect(printed).toContain('npx toolgate members reset-password admin@demo.toolgate.local');
      const demo = await db().tenant.findUniqueOrThrow({ where: { slug: 'demo' }, include: { contracts: true } });
      expect(demo.contracts.map((c) => c.name).sort()).toEqual([
        'cart.begin_checkout',
        'orders.lookup',
        'payments.refund',
        'support.issue_credit',
      ]);
      const key = /API key: {2}(\S+)/.exec(printed)?.[1] ?? '';
      // The printed curl line's call is allowed with the printed key.
      const body = JSON.parse(/-d '(.+)'$/m.exec(printed)?.[1] ?? '{}');
      const res = await call(validatePre, { key, body });
      expect(res.body.decision).toBe('allow');
      const password = /as \S+ \/ (\S+)/.exec(printed)?.[1] ?? '';
      expect((await signIn('admin@demo.toolgate.local', password)).status).toBe(200);

      const second = await bootstrap();
      expect(second.created).toBeNull();
      expect(second.lines).toEqual([]);
    }),
  );

  it(
    'creates the TOOLGATE_INIT_* tenant, admin and key, and ignores them once it exists',
    withEnv(
      {
        TOOLGATE_INIT_TENANT: 'acme-init',
        TOOLGATE_INIT_ADMIN_EMAIL: 'ops@acme.test',
        TOOLGATE_INIT_ADMIN_PASSWORD: 'correct horse battery',
        TOOLGATE_INIT_API_KEY: 'operator-chosen-key-0123456789',
      },
      async () => {
        expect((await bootstrap()).created).toBe('init');
        const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: 'acme-init' } });
        const keys = await db().apiKey.findMany({ where: { tenantId: tenant.id } });
        expect(keys).toHaveLength(1);
        expect(keys[0]?.scopes).toBe('validate admin');
        const unknownTool = await call(validatePre, {
          key: 'operator-chosen-key-0123456789',
          body: { tool: 'x.y', call_id: '1', arguments: {} },
        });
        expect(unknownTool.status).toBe(200);
        expect((await signIn('ops@acme.test', 'correct horse battery')).status).toBe(200);
        const again = await bootstrap();
        expect(again.created).toBeNull();
        expect(await db().apiKey.count({ where: { tenantId: tenant.id } })).toBe(1);
      },
    ),
  );
});

describe('dashboard sessions on the API', () => {
  let viewerCookie = '';

  beforeAll(async () => {
    const tenant = await db().tenant.create({ data: { slug: 'sess', name: 'Sessions' } });
    await addMember({ tenantId: tenant.id, email: 'viewer@sess.test', password: 'viewer-password', role: 'viewer' });
    viewerCookie = (await signIn('viewer@sess.test', 'viewer-password')).cookie;
  });

  it('refuses a wrong password', async () => {
    expect((await signIn('viewer@sess.test', 'wrong-password')).status).toBe(401);
  });

  it('lets a signed-in viewer read but not decide approvals', async () => {
    expect(viewerCookie).toContain('session_token');
    const list = await call(listContracts, { headers: { cookie: viewerCookie } });
    expect(list.status).toBe(200);
    expect(list.body.contracts).toEqual([]);
    const decision = await call(decide, { headers: { cookie: viewerCookie }, params: { id: 'nope' }, body: { decision: 'approve' } });
    expect(decision.status).toBe(403);
    expect((await call(listContracts, {})).status).toBe(401);
  });

  it('does not let a session call agent-only endpoints', async () => {
    const res = await call(validatePre, { headers: { cookie: viewerCookie }, body: { tool: 'x.y', call_id: '1', arguments: {} } });
    expect(res.status).toBe(401);
  });
});
