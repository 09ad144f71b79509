import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '@/lib/tenants/add-member';
import { resetEnvForTests } from '@/lib/env';
import { tenantCookie } from '@/lib/auth/session';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { asSession, signIn } from './member-sessions';
import { listMembersHandler as listMembers } from '@/lib/api/handlers/members';
import { listSessionTenantsHandler as listTenants, switchSessionTenantHandler as switchTenant } from '@/lib/api/handlers/session';

let a: Awaited<ReturnType<typeof createTestTenant>>;
let b: Awaited<ReturnType<typeof createTestTenant>>;
let stranger: Awaited<ReturnType<typeof createTestTenant>>;
let cookie = '';

beforeAll(async () => {
  a = await createTestTenant({ slug: 'home-a' });
  b = await createTestTenant({ slug: 'home-b' });
  stranger = await createTestTenant({ slug: 'not-mine' });
  await addMember({ tenantId: a.tenant.id, email: 'nomad@tenants.test', password: 'nomad-password', role: 'viewer' });
  await addMember({ tenantId: b.tenant.id, email: 'nomad@tenants.test', password: 'nomad-password', role: 'admin' });
  cookie = (await signIn('nomad@tenants.test', 'nomad-password')).cookie;
});

describe('several tenants per person', () => {
  it("lists the person's tenants; the first membership is where they act until they switch", async () => {
    const res = await call(listTenants, { headers: asSession(cookie) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      current: 'home-a',
      tenants: [
        { id: a.tenant.id, slug: 'home-a', name: 'home-a', role: 'viewer' },
        { id: b.tenant.id, slug: 'home-b', name: 'home-b', role: 'admin' },
      ],
    });
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(403);
  });

  it('switching sets an httpOnly, SameSite=Lax cookie; with it the person acts in the other tenant with that role', async () => {
    const res = await call(switchTenant, { headers: asSession(cookie), body: { tenant: 'home-b' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tenant: { id: b.tenant.id, slug: 'home-b', name: 'home-b', role: 'admin' } });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^toolgate_tenant=${b.tenant.id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=\\d+$`));
    const switched = `${cookie}; ${setCookie.split(';')[0]}`;
    expect((await call(listTenants, { headers: asSession(switched) })).body.current).toBe('home-b');
    const members = await call(listMembers, { headers: asSession(switched) });
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: { email: string }) => m.email)).toEqual(['nomad@tenants.test']);
  });

  it('refuses a tenant the person does not belong to (404), and ignores a forged cookie naming one', async () => {
    for (const tenant of ['not-mine', 'no-such-tenant']) {
      const res = await call(switchTenant, { headers: asSession(cookie), body: { tenant } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const forged = `${cookie}; toolgate_tenant=${stranger.tenant.id}`;
    expect((await call(listTenants, { headers: asSession(forged) })).body.current).toBe('home-a');
    expect((await call(listMembers, { headers: asSession(forged) })).status).toBe(403);
  });

  it('is for people: API keys and anonymous callers are refused', async () => {
    expect((await call(listTenants, { key: a.adminKey })).status).toBe(403);
    expect((await call(switchTenant, { key: a.adminKey, body: { tenant: 'home-b' } })).status).toBe(403);
    expect((await call(listTenants, {})).status).toBe(401);
  });

  it('marks the cookie Secure when the public URL is https', () => {
    const saved = process.env.TOOLGATE_PUBLIC_URL;
    try {
      process.env.TOOLGATE_PUBLIC_URL = 'https://toolgate.example';
      resetEnvForTests();
      expect(tenantCookie('t1')).toMatch(/; Secure$/);
    } finally {
      process.env.TOOLGATE_PUBLIC_URL = saved;
      resetEnvForTests();
    }
    expect(tenantCookie('t1')).not.toContain('Secure');
  });
});
