import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { TENANT_COOKIE } from '@/lib/auth/session';
import { TENANT_FIELD, TENANT_HEADER } from '@/lib/auth/page-tenant';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { exportContractHandler as exportContract } from '@/lib/api/handlers/contracts';
import { asSession, ORIGIN, signIn } from './member-sessions';
import { createApiKeyHandler as createKey, listApiKeysHandler as listKeys } from '@/lib/api/handlers/api-keys';
import { getSettingsHandler as getSettings, updateSettingsHandler as patchSettings } from '@/lib/api/handlers/settings';
import { listSessionTenantsHandler as listTenants } from '@/lib/api/handlers/session';

// A dashboard page names the tenant it was rendered for in the x-toolgate-tenant header, so that
// it keeps acting there after its person switched tenants in another tab (which rewrites the
// toolgate_tenant cookie every tab sends). docs/security.md#the-tenant-a-page-acts-in.

let a: Awaited<ReturnType<typeof createTestTenant>>;
let b: Awaited<ReturnType<typeof createTestTenant>>;
let stranger: Awaited<ReturnType<typeof createTestTenant>>;
/** Signed in as an admin of both a and b, the cookie switched to b (as another tab would). */
let switchedToB = '';

const keyNames = async (key: string) => ((await call(listKeys, { key })).body.api_keys as { name: string }[]).map((k) => k.name);

beforeAll(async () => {
  a = await createTestTenant({ slug: 'page-a' });
  b = await createTestTenant({ slug: 'page-b' });
  stranger = await createTestTenant({ slug: 'page-stranger' });
  await addMember({ tenantId: a.tenant.id, email: 'two-tabs@tenants.test', password: 'two-tabs-password', role: 'admin' });
  await addMember({ tenantId: b.tenant.id, email: 'two-tabs@tenants.test', password: 'two-tabs-password', role: 'admin' });
  const signedIn = await signIn('two-tabs@tenants.test', 'two-tabs-password');
  expect(signedIn.status).toBe(200);
  switchedToB = `${signedIn.cookie}; ${TENANT_COOKIE}=${b.tenant.id}`;
});

describe('x-toolgate-tenant on cookie sessions', () => {
  it('acts in the tenant the page names, not the one the cookie names by now', async () => {
    const made = await call(createKey, {
      headers: asSession(switchedToB, { [TENANT_HEADER]: a.tenant.id }),
      body: { name: 'made on the page of a', scopes: ['admin'] },
    });
    expect(made.status).toBe(201);
    expect(await keyNames(a.adminKey)).toContain('made on the page of a');
    expect(await keyNames(b.adminKey)).not.toContain('made on the page of a');

    const patched = await call(patchSettings, {
      method: 'PATCH',
      headers: asSession(switchedToB, { [TENANT_HEADER]: a.tenant.id }),
      body: { sensitive_paths: ['card.number'] },
    });
    expect(patched.status).toBe(200);
    expect((await call(getSettings, { key: a.adminKey })).body.sensitive_paths).toEqual(['card.number']);
    expect((await call(getSettings, { key: b.adminKey })).body.sensitive_paths).toEqual([]);
  });

  it("names either of the person's tenants, whatever the cookie says; without it the cookie decides, as before", async () => {
    const signedIn = switchedToB.replace(new RegExp(`; ${TENANT_COOKIE}=.*$`), '');
    // No tenant cookie: the first membership (a) is where they act, unless the page names b.
    const onB = await call(createKey, {
      headers: asSession(signedIn, { [TENANT_HEADER]: b.tenant.id }),
      body: { name: 'made on the page of b', scopes: ['validate'] },
    });
    expect(onB.status).toBe(201);
    expect(await keyNames(b.adminKey)).toContain('made on the page of b');
    expect(await keyNames(a.adminKey)).not.toContain('made on the page of b');

    expect((await call(listTenants, { headers: asSession(switchedToB) })).body.current).toBe('page-b');
    expect((await call(listTenants, { headers: asSession(switchedToB, { [TENANT_HEADER]: a.tenant.id }) })).body.current).toBe('page-a');
  });

  it('refuses a tenant the person is not a member of (403 not_a_member), never falling back to another', async () => {
    const before = await keyNames(stranger.adminKey);
    for (const headers of [
      asSession(switchedToB, { [TENANT_HEADER]: stranger.tenant.id }),
      asSession(switchedToB, { [TENANT_HEADER]: 'c0nosuchtenant0000000000' }),
    ]) {
      const res = await call(createKey, { headers, body: { name: 'must not exist', scopes: ['admin'] } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(res.body.error.details.reason).toBe('not_a_member');
      expect(res.body.error.message).toMatch(/not a member of the tenant this page was opened for any more.*Reload the page/);
      // Reads too: the page's tenant or nothing.
      const read = await call(getSettings, { headers });
      expect(read.status).toBe(403);
    }
    expect(await keyNames(stranger.adminKey)).toEqual(before);
    for (const key of [a.adminKey, b.adminKey]) expect(await keyNames(key)).not.toContain('must not exist');
  });

  it('refuses once the person is removed from the tenant the page was opened for, while the cookie still works elsewhere', async () => {
    const other = await createTestTenant({ slug: 'page-left' });
    const { user } = await addMember({ tenantId: other.tenant.id, email: 'two-tabs@tenants.test', password: 'unused', role: 'admin' });
    const headers = asSession(switchedToB, { [TENANT_HEADER]: other.tenant.id });
    expect((await call(getSettings, { headers })).status).toBe(200);
    await db().membership.delete({ where: { tenantId_userId: { tenantId: other.tenant.id, userId: user.id } } });
    const res = await call(patchSettings, { method: 'PATCH', headers, body: { approval_ttl_seconds: 60 } });
    expect(res.status).toBe(403);
    expect(res.body.error.details).toEqual({ reason: 'not_a_member', tenant_id: other.tenant.id });
    expect((await call(getSettings, { key: other.adminKey })).body.approval_ttl_seconds).toBeNull();
    expect((await call(getSettings, { headers: asSession(switchedToB) })).status).toBe(200);
  });

  it('answers garbage in the header with 403, never 500, and repeats none of it', async () => {
    for (const value of [
      '',
      ' ',
      'x'.repeat(65),
      'x'.repeat(5000),
      `${a.tenant.id}, ${b.tenant.id}`,
      "a'; drop table tenant; --",
      '../../etc',
      '%00',
    ]) {
      const res = await call(createKey, {
        headers: asSession(switchedToB, { [TENANT_HEADER]: value }),
        body: { name: 'garbage', scopes: ['validate'] },
      });
      expect(res.status, JSON.stringify(value)).toBe(403);
      expect(res.body.error.details.reason).toBe('not_a_member');
      expect(res.body.error.details.tenant_id).toBeNull();
    }
    for (const key of [a.adminKey, b.adminKey]) expect(await keyNames(key)).not.toContain('garbage');
  });

  it('checks the origin first: a cross-site request is refused as such whatever tenant it names', async () => {
    const res = await call(createKey, {
      headers: { cookie: switchedToB, origin: 'https://evil.example', [TENANT_HEADER]: stranger.tenant.id },
      body: { name: 'cross-site', scopes: ['admin'] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_site_request');
  });

  it('without a session the header changes nothing: 401', async () => {
    const res = await call(getSettings, { headers: { origin: ORIGIN, [TENANT_HEADER]: a.tenant.id } });
    expect(res.status).toBe(401);
  });
});

describe('x-toolgate-tenant with an API key', () => {
  it('is ignored: the key acts in its own tenant, whatever tenant or garbage the header names', async () => {
    for (const value of [b.tenant.id, stranger.tenant.id, 'x'.repeat(5000), '']) {
      const made = await call(createKey, {
        key: a.adminKey,
        headers: { [TENANT_HEADER]: value },
        body: { name: `key-made ${value.length}`, scopes: ['validate'] },
      });
      expect(made.status).toBe(201);
      expect(await keyNames(a.adminKey)).toContain(`key-made ${value.length}`);
      expect(await keyNames(b.adminKey)).not.toContain(`key-made ${value.length}`);
    }
    // A key and a cookie together: the key decides, the header with it.
    const both = await call(getSettings, { key: a.adminKey, headers: { cookie: switchedToB, [TENANT_HEADER]: stranger.tenant.id } });
    expect(both.status).toBe(200);
    expect(both.body).toEqual((await call(getSettings, { key: a.adminKey })).body);
  });
});

describe('?tenant_id= on a GET: the dashboard download links', () => {
  // A link cannot send a header: the violations CSV and a contract's MCP export name the page's
  // tenant in the query, so a click after a switch in another tab downloads what the page shows.
  const exportPath = `/api/v1/contracts/${lookupOrderContract.id}/versions/${lookupOrderContract.version}/export`;
  const exportOf = (query: string, options: { key?: string; headers?: Record<string, string> }) =>
    call(exportContract, {
      path: `${exportPath}?${query}`,
      params: { id: lookupOrderContract.id, version: lookupOrderContract.version },
      ...options,
    });

  beforeAll(async () => {
    await publishContract(a.tenant.id, { ...lookupOrderContract, description: 'Looks up an order in tenant a.' });
    await publishContract(b.tenant.id, { ...lookupOrderContract, description: 'Looks up an order in tenant b.' });
  });

  it("serves the tenant the link names, not the one the cookie names by now; without it, the cookie's", async () => {
    const named = await exportOf(`format=mcp&${TENANT_FIELD}=${a.tenant.id}`, { headers: asSession(switchedToB) });
    expect(named.status).toBe(200);
    expect(named.body.tool.description).toContain('tenant a');
    const unnamed = await exportOf('format=mcp', { headers: asSession(switchedToB) });
    expect(unnamed.body.tool.description).toContain('tenant b');
  });

  it("refuses a tenant the person is not a member of (403 not_a_member); an API key's tenant stays the key's", async () => {
    const refused = await exportOf(`format=mcp&${TENANT_FIELD}=${stranger.tenant.id}`, { headers: asSession(switchedToB) });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.reason).toBe('not_a_member');
    const byKey = await exportOf(`format=mcp&${TENANT_FIELD}=${b.tenant.id}`, { key: a.agentKey });
    expect(byKey.status).toBe(200);
    expect(byKey.body.tool.description).toContain('tenant a');
  });
});
