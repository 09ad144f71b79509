import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { changeMemberRole } from '@/lib/members/change-member-role';
import { inviteMember } from '@/lib/members/invite-member';
import { addMember } from '@/lib/tenants/add-member';
import { createTenant } from '@/lib/tenants/create-tenant';
import { startTestOidcProvider, type TestOidcAccount, type TestOidcProvider } from '@/lib/testing/oidc-test-provider';
import { symmetricDecrypt } from 'better-auth/crypto';
import { getAuth, resetAuthForTests } from './auth';
import { getInstanceSecret } from './instance-secret';

// The whole sign-in against a real OpenID provider (oidc-provider on loopback): Better Auth's
// route handlers on one side, the provider's login and consent pages driven over HTTP on the
// other. TOOLGATE_PUBLIC_URL is http://localhost:3000 (integration-setup.ts).
const BASE = 'http://localhost:3000';

const ACCOUNTS: Record<string, TestOidcAccount> = {
  ann: { email: 'ann@acme.test', emailVerified: true, name: 'Ann' },
  bob: { email: 'bob@acme.test', emailVerified: true },
  carol: { email: 'carol@acme.test', emailVerified: false },
  dave: { email: 'dave@other.test', emailVerified: true },
  erin: { email: 'erin@acme.test', emailVerified: true, groups: ['everyone', 'tg-approvers'] },
  frank: { email: 'frank@acme.test', emailVerified: true, groups: ['tg-viewers'] },
  gina: { email: 'gina@acme.test', emailVerified: true },
  hank: { email: 'hank@acme.test', emailVerified: false },
  ivy: { email: 'ivy@acme.test', emailVerified: true, groups: ['sales'] },
  // Entra ID sends no email_verified; its optional xms_edov claim says the same.
  jill: { email: 'jill@acme.test', xmsEdov: true },
  kim: { email: 'kim@acme.test' },
  lena: { email: 'lena@acme.test', emailVerified: true },
  // Providers that break the spec: the email claim is not a string.
  mona: { email: 4711, emailVerified: true },
  nell: { email: ['nell@acme.test'], emailVerified: true },
};

let provider: TestOidcProvider;
let tenantId: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A minimal cookie jar: enough for one browser talking to one provider and one Toolgate. */
class Jar {
  private cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  has(prefix: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(prefix));
  }
}

/** Follows the provider's redirects and pages until it sends the browser back to Toolgate. */
async function throughProvider(startUrl: string, login: string): Promise<string> {
  const jar = new Jar();
  let url = startUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    jar.take(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(BASE)) return next;
      url = next;
      continue;
    }
    const html = await response.text();
    expect(response.status, html.slice(0, 500)).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('the provider never redirected back');
}

interface SignInResult {
  location: string;
  error: string | null;
  cookie: string;
  sessionUserEmail: string | null;
  /** The callback's answer set the session cookie and then expired it. */
  sessionCookieExpired: boolean;
}

async function ssoSignIn(login: string): Promise<SignInResult> {
  const jar = new Jar();
  const start = await authPost(
    new Request(`${BASE}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify({ provider: 'sso', callbackURL: '/' }),
    }),
  );
  expect(start.status).toBe(200);
  jar.take(start);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('scope')?.split(' ').sort()).toEqual(['email', 'groups', 'openid', 'profile']);
  const callback = await throughProvider(url, login);
  const answer = await authGet(new Request(callback, { headers: { cookie: jar.header() } }));
  expect(answer.status).toBe(302);
  jar.take(answer);
  const sessionCookies = answer.headers.getSetCookie().filter((c) => c.includes('session_token='));
  const sessionCookieExpired = sessionCookies.length > 0 && /max-age=0/i.test(sessionCookies.at(-1) ?? '');
  const location = answer.headers.get('location') ?? '';
  const session = await (await getAuth()).api.getSession({ headers: new Headers({ cookie: jar.header() }) });
  return {
    location,
    error: new URL(location, BASE).searchParams.get('error'),
    cookie: jar.header(),
    sessionUserEmail: session?.user.email ?? null,
    sessionCookieExpired,
  };
}

async function invite(email: string, role: 'viewer' | 'author' | 'approver' | 'admin', tenant = tenantId) {
  return inviteMember({ tenantId: tenant, email, role, actor: { kind: 'system' } });
}

async function membershipRole(email: string, tenant = tenantId): Promise<string | null> {
  const user = await db().user.findUnique({ where: { email } });
  if (!user) return null;
  return (await db().membership.findUnique({ where: { tenantId_userId: { tenantId: tenant, userId: user.id } } }))?.role ?? null;
}

beforeAll(async () => {
  const port = await freePort();
  provider = await startTestOidcProvider({ port, redirectUris: [`${BASE}/api/auth/callback/sso`], accounts: ACCOUNTS });
  Object.assign(process.env, {
    TOOLGATE_OIDC_ISSUER: provider.issuer,
    TOOLGATE_OIDC_CLIENT_ID: provider.clientId,
    TOOLGATE_OIDC_CLIENT_SECRET: provider.clientSecret,
    TOOLGATE_OIDC_ALLOWED_DOMAINS: 'acme.test',
    TOOLGATE_OIDC_GROUPS_CLAIM: 'groups',
    TOOLGATE_OIDC_ROLE_MAPPING: 'tg-viewers=viewer,tg-approvers=approver,tg-admins=admin',
  });
  resetEnvForTests();
  resetAuthForTests();
  tenantId = (await createTenant({ slug: 'sso-acme' })).id;
  await addMember({ tenantId, email: 'owner@acme.test', password: 'owner-password', role: 'admin' });
});

afterAll(async () => {
  for (const key of Object.keys(process.env)) if (key.startsWith('TOOLGATE_OIDC_')) delete process.env[key];
  resetEnvForTests();
  resetAuthForTests();
  await provider?.close();
});

describe('SSO sign-in against a real OpenID provider', () => {
  it('creates an invited person with a verified email, signs them in and gives them the invited role', async () => {
    await invite('ann@acme.test', 'author');
    const result = await ssoSignIn('ann');
    expect(result.error).toBeNull();
    expect(result.location).toBe('/');
    expect(result.sessionUserEmail).toBe('ann@acme.test');
    const user = await db().user.findUniqueOrThrow({ where: { email: 'ann@acme.test' }, include: { accounts: true } });
    expect(user.name).toBe('Ann');
    expect(user.emailVerified).toBe(true);
    expect(user.accounts.map((a) => [a.providerId, a.accountId])).toEqual([['sso', 'ann']]);
    // The provider's tokens are kept on the account row, the access token encrypted with the
    // instance secret: what is stored is not the token, and decrypts to one the provider takes.
    const account = user.accounts[0]!;
    expect(account.idToken).toMatch(/^ey/);
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string };
    const asStored = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${account.accessToken}` } });
    expect(asStored.status).toBe(401);
    const token = await symmetricDecrypt({ key: await getInstanceSecret(), data: account.accessToken ?? '' });
    const userinfo = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
    expect(userinfo.status).toBe(200);
    expect(((await userinfo.json()) as { email?: string }).email).toBe('ann@acme.test');
    expect(await membershipRole('ann@acme.test')).toBe('author');
    const invitation = await db().invitation.findFirstOrThrow({ where: { email: 'ann@acme.test' } });
    expect(invitation.acceptedUserId).toBe(user.id);
    const evidence = await db().evidence.findMany({ where: { tenant: { tenantId }, kind: 'membership' } });
    expect(evidence.some((e) => e.decision === 'invitation_accepted' && JSON.parse(e.details ?? '{}').email === 'ann@acme.test')).toBe(
      true,
    );

    // Signing in again reuses the user and the account.
    const again = await ssoSignIn('ann');
    expect(again.sessionUserEmail).toBe('ann@acme.test');
    expect(await db().user.count({ where: { email: 'ann@acme.test' } })).toBe(1);
    expect(await db().account.count({ where: { user: { email: 'ann@acme.test' } } })).toBe(1);
  });

  it("never hands the provider's tokens to the browser: a session cannot read them back", async () => {
    // Better Auth serves them to any holder of the session cookie (get-access-token,
    // refresh-token, account-info): a stolen Toolgate session would have been the person's
    // access token at the company's identity provider.
    await invite('lena@acme.test', 'viewer');
    const result = await ssoSignIn('lena');
    expect(result.sessionUserEmail).toBe('lena@acme.test');
    const account = await db().account.findFirstOrThrow({ where: { user: { email: 'lena@acme.test' }, providerId: 'sso' } });
    const asSession = (path: string, body?: unknown) =>
      body === undefined
        ? authGet(new Request(`${BASE}/api/auth${path}`, { headers: { cookie: result.cookie } }))
        : authPost(
            new Request(`${BASE}/api/auth${path}`, {
              method: 'POST',
              headers: { cookie: result.cookie, origin: BASE, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            }),
          );
    for (const answer of [
      await asSession('/get-access-token', { accountId: account.id }),
      await asSession('/refresh-token', { accountId: account.id }),
      await asSession(`/account-info?accountId=${account.id}`),
      await asSession('/list-accounts'),
      await asSession('/verify-password', { password: 'any-password' }),
    ]) {
      expect(answer.status).toBe(404);
      expect(JSON.stringify(await answer.json())).not.toContain('accessToken');
    }
    // What the dashboard uses still works with that session.
    const session = await asSession('/get-session');
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('lena@acme.test');
  });

  it('refuses to send a sign-in anywhere but Toolgate afterwards: another site as callbackURL or errorCallbackURL is a 403', async () => {
    for (const body of [
      { provider: 'sso', callbackURL: 'https://evil.example/after' },
      { provider: 'sso', callbackURL: '//evil.example/after' },
      { provider: 'sso', callbackURL: '/', errorCallbackURL: 'https://evil.example/oops' },
      { provider: 'sso', callbackURL: '/', newUserCallbackURL: 'https://evil.example/new' },
    ]) {
      const answer = await authPost(
        new Request(`${BASE}/api/auth/sign-in/social`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE },
          body: JSON.stringify(body),
        }),
      );
      expect(answer.status, JSON.stringify(body)).toBe(403);
    }
  });

  it('refuses an uninvited person and creates nothing', async () => {
    const result = await ssoSignIn('bob');
    expect(result.error).toBe('sso_not_invited');
    expect(result.location.startsWith(`${BASE}/sign-in?`)).toBe(true);
    expect(result.sessionUserEmail).toBeNull();
    expect(await db().user.count({ where: { email: 'bob@acme.test' } })).toBe(0);
    expect(await db().account.count({ where: { providerId: 'sso', accountId: 'bob' } })).toBe(0);
  });

  it('refuses an invited email the provider did not verify, and one outside the allowed domains', async () => {
    await invite('carol@acme.test', 'viewer');
    await invite('dave@other.test', 'viewer');
    expect((await ssoSignIn('carol')).error).toBe('sso_email_unverified');
    expect((await ssoSignIn('dave')).error).toBe('sso_domain_not_allowed');
    expect(await db().user.count({ where: { email: { in: ['carol@acme.test', 'dave@other.test'] } } })).toBe(0);
    // Their invitations are still waiting.
    expect(await db().invitation.count({ where: { email: { in: ['carol@acme.test', 'dave@other.test'] }, acceptedAt: null } })).toBe(2);
  });

  it("takes Entra ID's xms_edov for a verified email, and refuses an address with neither claim", async () => {
    await invite('jill@acme.test', 'viewer');
    await invite('kim@acme.test', 'viewer');
    expect((await ssoSignIn('jill')).sessionUserEmail).toBe('jill@acme.test');
    expect((await db().user.findUniqueOrThrow({ where: { email: 'jill@acme.test' } })).emailVerified).toBe(true);
    expect((await ssoSignIn('kim')).error).toBe('sso_email_unverified');
    expect(await db().user.count({ where: { email: 'kim@acme.test' } })).toBe(0);
  });

  it('answers an email claim that is not a string as a missing email (email_not_found), creating nothing', async () => {
    await invite('nell@acme.test', 'viewer');
    const users = await db().user.count();
    for (const login of ['mona', 'nell']) expect((await ssoSignIn(login)).error, login).toBe('email_not_found');
    expect(await db().user.count()).toBe(users);
  });

  it('links SSO to an existing user with the same verified email, and not for an unverified one', async () => {
    await addMember({ tenantId, email: 'gina@acme.test', password: 'gina-password', role: 'approver' });
    await addMember({ tenantId, email: 'hank@acme.test', password: 'hank-password', role: 'viewer' });
    const gina = await ssoSignIn('gina');
    expect(gina.sessionUserEmail).toBe('gina@acme.test');
    expect((await db().account.findMany({ where: { user: { email: 'gina@acme.test' } } })).map((a) => a.providerId).sort()).toEqual([
      'credential',
      'sso',
    ]);
    expect(await membershipRole('gina@acme.test')).toBe('approver');

    const hank = await ssoSignIn('hank');
    expect(hank.error).toBe('sso_email_unverified');
    expect(hank.sessionUserEmail).toBeNull();
    expect((await db().account.findMany({ where: { user: { email: 'hank@acme.test' } } })).map((a) => a.providerId)).toEqual([
      'credential',
    ]);
  });

  it('turns away a known user who belongs to no tenant, without a session', async () => {
    const other = await createTenant({ slug: 'sso-other' });
    await addMember({ tenantId: other.id, email: 'ivy@acme.test', password: 'ivy-password-1', role: 'viewer' });
    await db().membership.deleteMany({ where: { tenantId: other.id } });
    const result = await ssoSignIn('ivy');
    expect(result.error).toBe('sso_not_invited');
    expect(result.sessionUserEmail).toBeNull();
    expect(result.sessionCookieExpired).toBe(true);
    const user = await db().user.findUniqueOrThrow({ where: { email: 'ivy@acme.test' } });
    expect(await db().session.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('groups to roles', () => {
  it('gives the highest mapped role instead of the invited one, and restores it on the next sign-in', async () => {
    await invite('erin@acme.test', 'viewer');
    expect((await ssoSignIn('erin')).error).toBeNull();
    expect(await membershipRole('erin@acme.test')).toBe('approver');
    const accepted = await db().evidence.findMany({ where: { tenant: { tenantId }, kind: 'membership' } });
    const record = accepted
      .filter((e) => e.decision === 'invitation_accepted')
      .map((e) => JSON.parse(e.details ?? '{}'))
      .find((d) => d.email === 'erin@acme.test');
    expect(record).toMatchObject({ role: 'approver', invited_role: 'viewer' });

    // An admin changes the role; the next SSO sign-in sets it back to what the groups say.
    const membership = await db().membership.findFirstOrThrow({ where: { tenantId, user: { email: 'erin@acme.test' } } });
    await changeMemberRole({ tenantId, membershipId: membership.id, role: 'viewer', actor: { kind: 'system' } });
    expect((await ssoSignIn('erin')).error).toBeNull();
    expect(await membershipRole('erin@acme.test')).toBe('approver');
    const last = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId }, kind: 'membership' }, orderBy: { seq: 'desc' } });
    expect(last.decision).toBe('member_role_changed');
    expect(last.actorUserId).toBeNull();
    expect(last.apiKeyId).toBeNull();
    expect(JSON.parse(last.details ?? '{}')).toMatchObject({
      email: 'erin@acme.test',
      old_role: 'viewer',
      new_role: 'approver',
      reason: 'sso_groups',
    });
  });

  it('leaves the invited role when no group is mapped', async () => {
    await invite('ivy@acme.test', 'author');
    expect((await ssoSignIn('ivy')).error).toBeNull();
    expect(await membershipRole('ivy@acme.test')).toBe('author');
  });

  it("never demotes a tenant's last admin", async () => {
    const solo = await createTenant({ slug: 'sso-solo' });
    await addMember({ tenantId: solo.id, email: 'frank@acme.test', password: 'frank-password', role: 'admin' });
    const result = await ssoSignIn('frank');
    expect(result.error).toBeNull();
    expect(result.sessionUserEmail).toBe('frank@acme.test');
    expect(await membershipRole('frank@acme.test', solo.id)).toBe('admin');
    expect(await db().evidence.count({ where: { tenant: { tenantId: solo.id }, kind: 'membership' } })).toBe(0);
  });
});

describe('when things go wrong', () => {
  it('sends a callback with a forged state back to the sign-in page with a code, creating nothing', async () => {
    const users = await db().user.count();
    const answer = await authGet(new Request(`${BASE}/api/auth/callback/sso?code=forged&state=forged`));
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '', BASE);
    expect(location.pathname).toBe('/sign-in');
    expect(location.searchParams.get('error')).toMatch(/^state_/);
    expect(answer.headers.getSetCookie().some((c) => c.includes('session_token=') && !c.includes('Max-Age=0'))).toBe(false);
    expect(await db().user.count()).toBe(users);
  });

  it('refuses to start a sign-in while the provider is unreachable, and works once it is back', async () => {
    const port = await freePort();
    const saved = { ...process.env };
    Object.assign(process.env, { TOOLGATE_OIDC_ISSUER: `http://127.0.0.1:${port}` });
    resetEnvForTests();
    resetAuthForTests();
    const start = () =>
      authPost(
        new Request(`${BASE}/api/auth/sign-in/social`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE },
          body: JSON.stringify({ provider: 'sso', callbackURL: '/' }),
        }),
      );
    let second: TestOidcProvider | undefined;
    try {
      const down = await start();
      expect(down.status).toBe(404);
      expect(((await down.json()) as { message?: string }).message).toBeTruthy();
      second = await startTestOidcProvider({
        port,
        redirectUris: [`${BASE}/api/auth/callback/sso`],
        accounts: ACCOUNTS,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
      });
      const up = await start();
      expect(up.status).toBe(200);
      const { url } = (await up.json()) as { url: string };
      expect(new URL(url).origin).toBe(`http://127.0.0.1:${port}`);
      expect(new URL(url).searchParams.get('scope')?.split(' ')).toContain('groups');
    } finally {
      process.env.TOOLGATE_OIDC_ISSUER = saved.TOOLGATE_OIDC_ISSUER;
      resetEnvForTests();
      resetAuthForTests();
      await second?.close();
    }
  });
});
