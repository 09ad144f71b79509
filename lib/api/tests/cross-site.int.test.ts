import { beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createApiKeyHandler as createKey } from '@/lib/api/handlers/api-keys';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';

// TOOLGATE_PUBLIC_URL is http://localhost:3000 in integration tests (lib/testing/integration-setup.ts).
const OWN = 'http://localhost:3000';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let adminCookie = '';
let approverCookie = '';

async function signIn(
  email: string,
  headers: Record<string, string> = { origin: OWN },
  body: string | null = JSON.stringify({ email, password: 'a-long-password' }),
) {
  const response = await authPost(
    new Request(`${OWN}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }),
  );
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
    setCookie: response.headers.getSetCookie(),
  };
}

/** A request exactly as given: no Origin or Content-Type is added. */
async function raw(
  handler: (request: Request, context: never) => Promise<Response>,
  path: string,
  headers: Record<string, string>,
  body: string,
  params: Record<string, string> = {},
) {
  const response = await handler(new Request(`${OWN}${path}`, { method: 'POST', headers, body }), {
    params: Promise.resolve(params),
  } as never);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * The cross-site variants of the issue: Origin null, another site's Origin, Sec-Fetch-Site
 * cross-site or same-site without an Origin, no Origin at all, and a matching Origin with a
 * contradicting Sec-Fetch-Site; each with a JSON, a form-like and no Content-Type.
 */
const VARIANTS: { name: string; headers: Record<string, string>; reason: string }[] = [
  { name: 'Origin: null', headers: { origin: 'null' }, reason: 'origin_null' },
  { name: 'Origin: http://evil.example', headers: { origin: 'http://evil.example' }, reason: 'origin_mismatch' },
  { name: 'Origin of another port', headers: { origin: 'http://localhost:3001' }, reason: 'origin_mismatch' },
  { name: 'Origin with a path', headers: { origin: `${OWN}/` }, reason: 'origin_malformed' },
  { name: 'Sec-Fetch-Site: cross-site, no Origin', headers: { 'sec-fetch-site': 'cross-site' }, reason: 'cross_site' },
  { name: 'Sec-Fetch-Site: same-site, no Origin', headers: { 'sec-fetch-site': 'same-site' }, reason: 'cross_site' },
  { name: 'own Origin with Sec-Fetch-Site: cross-site', headers: { origin: OWN, 'sec-fetch-site': 'cross-site' }, reason: 'cross_site' },
  { name: 'no Origin and no Sec-Fetch-Site', headers: {}, reason: 'origin_missing' },
];
const CONTENT_TYPES: (string | null)[] = ['application/json', 'text/plain', null];

function withContentType(headers: Record<string, string>, type: string | null): Record<string, string> {
  return type === null ? headers : { ...headers, 'content-type': type };
}

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  const admin = `admin-${t.tenant.slug}@test.local`;
  const approver = `approver-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email: admin, password: 'a-long-password', role: 'admin' });
  await addMember({ tenantId: t.tenant.id, email: approver, password: 'a-long-password', role: 'approver' });
  adminCookie = (await signIn(admin)).cookie;
  approverCookie = (await signIn(approver)).cookie;
  expect(adminCookie).toContain('session_token');
  expect(approverCookie).toContain('session_token');
});

const keyCount = () => db().apiKey.count({ where: { tenantId: t.tenant.id } });
const keyBody = (name: string) => JSON.stringify({ name, scopes: ['admin'] });

describe('POST /api/v1/api-keys with a session cookie', () => {
  it('refuses every cross-site variant with 403 cross_site_request, with and without a Content-Type, and creates no key', async () => {
    const before = await keyCount();
    for (const variant of VARIANTS) {
      for (const type of CONTENT_TYPES) {
        const res = await raw(
          createKey,
          '/api/v1/api-keys',
          withContentType({ cookie: adminCookie, ...variant.headers }, type),
          keyBody(`forged ${variant.name}`),
        );
        const label = `${variant.name}, content-type ${type}`;
        expect(res.status, label).toBe(403);
        expect(res.body.error.code, label).toBe('cross_site_request');
        expect(res.body.error.details, label).toEqual({ reason: variant.reason, expected_origin: OWN });
        expect(res.body.request_id, label).toEqual(expect.any(String));
      }
    }
    expect(await keyCount()).toBe(before);
    expect(await db().apiKey.count({ where: { tenantId: t.tenant.id, name: { startsWith: 'forged' } } })).toBe(0);
  });

  it('refuses before reading the body: an oversized or malformed one still gets cross_site_request', async () => {
    const big = await raw(
      createKey,
      '/api/v1/api-keys',
      { cookie: adminCookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      'x'.repeat(2 * 1024 * 1024),
    );
    expect(big.status).toBe(403);
    expect(big.body.error.code).toBe('cross_site_request');
    const form = await raw(
      createKey,
      '/api/v1/api-keys',
      { cookie: adminCookie, origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
      'name=x&scopes=admin',
    );
    expect(form.body.error.code).toBe('cross_site_request');
  });

  it("still creates the key from the instance's own origin", async () => {
    const before = await keyCount();
    const res = await raw(
      createKey,
      '/api/v1/api-keys',
      { cookie: adminCookie, origin: OWN, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      keyBody('same origin'),
    );
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^tg_/);
    // Upper-case spelling of the same origin, and a browser that vouched without an Origin.
    expect(
      (
        await raw(
          createKey,
          '/api/v1/api-keys',
          { cookie: adminCookie, origin: OWN.toUpperCase(), 'content-type': 'application/json' },
          keyBody('upper case'),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await raw(
          createKey,
          '/api/v1/api-keys',
          { cookie: adminCookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
          keyBody('fetch metadata'),
        )
      ).status,
    ).toBe(201);
    expect(await keyCount()).toBe(before + 3);
  });

  it('leaves API-key requests alone: a Bearer key from any origin works', async () => {
    const res = await raw(
      createKey,
      '/api/v1/api-keys',
      {
        authorization: `Bearer ${t.adminKey}`,
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      keyBody('bearer'),
    );
    expect(res.status).toBe(201);
  });

  it('keeps 401 for a cross-site request without any cookie (there is no session to misuse)', async () => {
    const res = await raw(
      createKey,
      '/api/v1/api-keys',
      { origin: 'http://evil.example', 'content-type': 'application/json' },
      keyBody('anonymous'),
    );
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('POST /api/v1/approvals/{id}/decision with a session cookie', () => {
  let approvalId = '';

  beforeAll(async () => {
    const args = {
      tenant_id: 'acme',
      payment_id: 'pay_abcdefgh12',
      amount_cents: 4200,
      reason: 'duplicate',
      card: { last4: '4242', holder_name: 'Ada Lovelace' },
    };
    const context = { tenant_id: 'acme', user_id: 'end-user-1', roles: ['support'], state: { payment_status: 'captured' } };
    const res = await call(validatePre, { key: t.agentKey, body: { tool: 'payments.refund', call_id: 'xs-1', arguments: args, context } });
    expect(res.body.decision).toBe('require_approval');
    approvalId = res.body.approval.id;
  });

  const approval = () => db().approval.findUniqueOrThrow({ where: { id: approvalId } });
  const decisionEvidence = () => db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'approval_decision' } });

  it('refuses every cross-site variant, with and without a Content-Type, and decides nothing', async () => {
    const evidenceBefore = await decisionEvidence();
    for (const variant of VARIANTS) {
      for (const type of CONTENT_TYPES) {
        const res = await raw(
          decide,
          `/api/v1/approvals/${approvalId}/decision`,
          withContentType({ cookie: approverCookie, ...variant.headers }, type),
          JSON.stringify({ decision: 'approve' }),
          { id: approvalId },
        );
        const label = `${variant.name}, content-type ${type}`;
        expect(res.status, label).toBe(403);
        expect(res.body.error.code, label).toBe('cross_site_request');
      }
    }
    expect((await approval()).status).toBe('pending');
    expect(await decisionEvidence()).toBe(evidenceBefore);
  });

  it("decides from the instance's own origin", async () => {
    const res = await raw(
      decide,
      `/api/v1/approvals/${approvalId}/decision`,
      { cookie: approverCookie, origin: OWN, 'content-type': 'application/json' },
      JSON.stringify({ decision: 'approve' }),
      { id: approvalId },
    );
    expect(res.status).toBe(200);
    expect((await approval()).status).toBe('approved');
  });
});

describe('Better Auth endpoints', () => {
  const email = () => `admin-${t.tenant.slug}@test.local`;

  it('refuses a sign-in from another site, with or without a Content-Type, and sets no cookie', async () => {
    const sessions = await db().session.count();
    const variants: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const headers of variants) {
      const res = await signIn(email(), headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('cross_site_request');
      expect(res.setCookie).toEqual([]);
    }
    const untyped = await authPost(
      new Request(`${OWN}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: 'http://evil.example' },
        body: JSON.stringify({ email: email(), password: 'a-long-password' }),
      }),
    );
    expect(untyped.status).toBe(403);
    expect((await untyped.json()).error.code).toBe('cross_site_request');
    expect(await db().session.count()).toBe(sessions);
  });

  it("refuses a cross-site sign-out, which would end the person's session", async () => {
    const res = await authPost(
      new Request(`${OWN}/api/auth/sign-out`, { method: 'POST', headers: { cookie: adminCookie, origin: 'http://evil.example' } }),
    );
    expect(res.status).toBe(403);
    const own = await raw(
      createKey,
      '/api/v1/api-keys',
      { cookie: adminCookie, origin: OWN, 'content-type': 'application/json' },
      keyBody('still signed in'),
    );
    expect(own.status).toBe(201);
  });

  it("signs in from the instance's own origin", async () => {
    const res = await signIn(email());
    expect(res.status).toBe(200);
    expect(res.cookie).toContain('session_token');
  });
});
