// A name with a NUL, which no text column holds, names nothing. PostgreSQL refuses the lookup
// itself (22021), so these were a bare 400 "out of the range the database can hold" there and a
// 404 (or the usual answer) on SQLite; now both databases answer as SQLite did, without the query.
import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import { deprecateContractHandler as deprecate } from '@/lib/api/handlers/contracts';
import { listSessionTenantsHandler as listTenants, switchSessionTenantHandler as switchTenant } from '@/lib/api/handlers/session';
import { getSettingsHandler as getSettings } from '@/lib/api/handlers/settings';
import { asSession, signIn } from './member-sessions';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;
let cookie: string;

beforeAll(async () => {
  t = await createTestTenant({ slug: 'nul-lookups' });
  await publishContract(t.tenant.id, lookupOrderContract);
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'author', scopes: ['author'] })).key;
  await addMember({ tenantId: t.tenant.id, email: 'nul@lookups.test', password: 'a-long-password', role: 'admin' });
  cookie = (await signIn('nul@lookups.test', 'a-long-password')).cookie;
});

describe('a NUL in a name looked up', () => {
  it('deprecating a version named with one: 404 not_found', async () => {
    const version = `${lookupOrderContract.version}\u0000`;
    const res = await call(deprecate, { key: authorKey, params: { id: lookupOrderContract.id }, body: { version } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      code: 'not_found',
      message: `contract version "${lookupOrderContract.id}@${version}" was not found`,
      details: { resource: 'contract version', id: `${lookupOrderContract.id}@${version}` },
    });
  });

  it('switching to a tenant slug with one: 404 not_found', async () => {
    const res = await call(switchTenant, { headers: asSession(cookie), body: { tenant: 'nul-lookups\u0000' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      code: 'not_found',
      message: 'Tenant "nul-lookups\u0000" was not found',
      details: { resource: 'Tenant', id: 'nul-lookups\u0000' },
    });
  });

  it('a toolgate_tenant cookie holding one is ignored: the person acts in their first tenant', async () => {
    for (const value of ['%00', `${t.tenant.id}%00`]) {
      const headers = asSession(`${cookie}; toolgate_tenant=${value}`);
      const settings = await call(getSettings, { headers });
      expect(settings.status, JSON.stringify(settings.body)).toBe(200);
      expect((await call(listTenants, { headers })).body.current).toBe('nul-lookups');
    }
  });
});
