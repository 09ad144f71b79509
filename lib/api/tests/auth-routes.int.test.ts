import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { getAuth } from '@/lib/auth/auth';
import { SERVED_AUTH_ENDPOINTS } from '@/lib/auth/auth-routes';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant } from '@/lib/testing/fixtures';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';
import { signIn } from './member-sessions';

// Paths under /api/auth that Better Auth does not serve are answered before it: its rate limit
// counts each request in the database before it routes it, so each new path was a new row.
const BASE = 'http://localhost:3000';

function get(path: string) {
  return authGet(new Request(`${BASE}${path}`));
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const own = await authGet(new Request(`${BASE}/api/auth/get-session`, { headers: { cookie } }));
  const body = (await own.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

function post(path: string, body: unknown = {}) {
  return authPost(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify(body),
    }),
  );
}

describe('/api/auth paths', () => {
  it('serves only endpoints Better Auth has (a rename in an upgrade would leave one unserved)', async () => {
    const api = (await getAuth()).api as Record<string, { path?: string }>;
    const paths = new Set(Object.values(api).map((endpoint) => endpoint.path));
    expect([...SERVED_AUTH_ENDPOINTS].filter((path) => !paths.has(path))).toEqual([]);
  });

  it('a path Better Auth serves reaches it', async () => {
    const session = await get('/api/auth/get-session');
    expect(session.status).toBe(200);
    expect(await session.json()).toBeNull();
    const signIn = await post('/api/auth/sign-in/email', { email: 'nobody@test.local', password: 'wrong-password' });
    expect(signIn.status).toBe(401);
    // A path with a parameter: the OAuth callback of a provider id, refused by Better Auth itself.
    expect((await get('/api/auth/callback/nobody?code=x&state=y')).status).not.toBe(404);
  });

  it.each([
    ['GET', '/api/auth/nothing-here'],
    ['GET', '/api/auth/sign-in/email'],
    ['POST', '/api/auth/get-session/'],
    ['GET', '/api/auth//get-session'],
    ['GET', '/api/auth/'],
    ['POST', '/api/auth/sign-in/email/extra'],
    ['POST', '/api/auth/SIGN-IN/EMAIL'],
    ['GET', '/api/auth/callback/'],
    ['POST', `/api/auth/callback/${'a'.repeat(65)}`],
    ['GET', '/api/auth/callback/sso%00?code=x&state=y'],
    ['GET', '/api/auth/%2e%2e/get-session'],
    // Better Auth's, but not served: Toolgate does not use them, and some give too much away.
    ['POST', '/api/auth/get-access-token'],
    ['POST', '/api/auth/refresh-token'],
    ['GET', '/api/auth/account-info'],
    ['GET', '/api/auth/list-accounts'],
    ['POST', '/api/auth/verify-password'],
    ['POST', '/api/auth/update-session'],
    ['POST', '/api/auth/update-user'],
    ['POST', '/api/auth/delete-user'],
    ['POST', '/api/auth/link-social'],
    ['POST', '/api/auth/request-password-reset'],
    ['POST', '/api/auth/sign-up/email'],
    ['GET', '/api/auth/list-sessions'],
    ['POST', '/api/auth/revoke-sessions'],
  ])('%s %s is not found, answered with the error envelope', async (method, path) => {
    const response = method === 'GET' ? await get(path) : await post(path);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('not_found');
  });
});

describe('POST /api/auth/revoke-other-sessions (Your account: sign out my other sessions)', () => {
  it("ends the person's other sessions, keeps this one, and touches nobody else's", async () => {
    const t = await createTestTenant();
    const email = `sessions-${t.tenant.slug}@test.local`;
    const bystander = `bystander-${t.tenant.slug}@test.local`;
    await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role: 'viewer' });
    await addMember({ tenantId: t.tenant.id, email: bystander, password: 'a-long-password', role: 'viewer' });
    const here = await signIn(email, 'a-long-password');
    const elsewhere = await signIn(email, 'a-long-password');
    const theirs = await signIn(bystander, 'a-long-password');
    const revoke = (cookie: string, origin = BASE) =>
      authPost(
        new Request(`${BASE}/api/auth/revoke-other-sessions`, {
          method: 'POST',
          headers: { cookie, origin, 'content-type': 'application/json' },
          body: '{}',
        }),
      );

    // From another site, with the person's cookie: refused, nothing ended.
    expect((await revoke(here.cookie, 'http://evil.example')).status).toBe(403);
    expect(await sessionEmail(elsewhere.cookie)).toBe(email);

    expect((await revoke(here.cookie)).status).toBe(200);
    expect(await sessionEmail(here.cookie)).toBe(email);
    expect(await sessionEmail(elsewhere.cookie)).toBeNull();
    expect(await sessionEmail(theirs.cookie)).toBe(bystander);
    // Signed out: nothing to end.
    expect((await revoke('')).status).toBe(401);
  });
});

describe('a callback whose provider id is no short token', () => {
  // Better Auth's rate limit (on in production) keys its row by the path: a path of a few kB was
  // a key past PostgreSQL's index row limit (about 2,700 bytes), and the failed write a 503
  // "cannot reach its database" for whoever sent it. Not found now, before Better Auth sees it.
  it('is not found, answered with the error envelope', async () => {
    const response = await get(`/api/auth/callback/${randomBytes(3000).toString('base64url')}?code=x&state=y`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('a database that will not take the write', () => {
  it('answers a sign-in 503 with Retry-After and the envelope, not a bare 500, and the next one signs in', async () => {
    const t = await createTestTenant();
    const email = `full-${t.tenant.slug}@test.local`;
    await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role: 'viewer' });
    // As a full disk refuses it: the session row cannot be written.
    await refuseInserts('Session', '1 = 1');
    try {
      const refused = await post('/api/auth/sign-in/email', { email, password: 'a-long-password' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    } finally {
      await allowInserts('Session');
    }
    expect((await post('/api/auth/sign-in/email', { email, password: 'a-long-password' })).status).toBe(200);
  });
});
