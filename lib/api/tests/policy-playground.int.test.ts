import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { tryPolicyHandler as tryPolicy } from '@/lib/api/handlers/try-policy';
import { asSession, ORIGIN, signIn } from './member-sessions';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;
let authorCookie: string;
let viewerCookie: string;

const POLICY = {
  id: 'playground',
  version: '0.1.0',
  limits: [
    { id: 'two-per-user', tools: ['orders.lookup'], per: 'user', window: '1h', max_calls: 2 },
    {
      id: 'refund-budget',
      tools: ['payments.refund'],
      per: 'tenant',
      window: '1d',
      max_sum: { path: 'amount_cents', value: 10_000 },
      when_exceeded: 'require_approval',
      roles: ['finance'],
    },
  ],
  rules: [
    {
      id: 'one-checkout-per-minute',
      tools: ['cart.begin_checkout'],
      when: "history.seconds_since(['cart.begin_checkout'], 'session', '1h') < 60",
      decision: 'deny',
      reason: 'One checkout a minute per session.',
    },
  ],
};

const LOOKUP = { tool: 'orders.lookup', arguments: { tenant_id: 'acme', order_id: 'ord_abc123' }, context: { user_id: 'u1' } };
const lookups = (...secondsAgo: number[]) => secondsAgo.map((s) => ({ tool: 'orders.lookup', seconds_ago: s }));

const tryWithKey = (body: unknown, key = authorKey) => call(tryPolicy, { key, body });

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  const author = `author-${t.tenant.slug}@test.local`;
  const viewer = `viewer-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email: author, password: 'a-long-password', role: 'author' });
  await addMember({ tenantId: t.tenant.id, email: viewer, password: 'a-long-password', role: 'viewer' });
  authorCookie = (await signIn(author, 'a-long-password')).cookie;
  viewerCookie = (await signIn(viewer, 'a-long-password')).cookie;
  expect(authorCookie).toContain('session_token');
});

describe('POST /api/v1/policies/try', () => {
  it('allows a call under the limit, with the contract side-effect level, the limit standing and the trace', async () => {
    const res = await tryWithKey({ policy: POLICY, ...LOOKUP, history: lookups(600) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      policy: { id: 'playground', version: '0.1.0' },
      tool: 'orders.lookup',
      side_effect: { level: 'read_only', source: 'contract', contract_version: '1.3.0' },
      decision: 'allow',
      errors: [],
      transformed_arguments: null,
      approval: null,
      simulated_calls: 1,
    });
    expect(res.body.limits).toEqual([
      {
        policy_id: 'playground',
        limit_id: 'two-per-user',
        kind: 'calls',
        per: 'user',
        window: '1h',
        max: 2,
        used: 1,
        amount: 1,
        remaining: 1,
        exceeded: false,
        when_exceeded: 'deny',
        retry_after_seconds: null,
      },
    ]);
    expect(res.body.trace).toEqual([
      { policy_id: 'playground', step: 'limit', id: 'two-per-user', outcome: 'passed', detail: expect.stringContaining('1 calls of 2') },
      { policy_id: 'playground', step: 'limit', id: 'refund-budget', outcome: 'not_applicable' },
      { policy_id: 'playground', step: 'rule', id: 'one-checkout-per-minute', outcome: 'not_applicable' },
    ]);
  });

  it('denies past the limit with AXAG_RATE_LIMITED, what remains and when to retry; another user is allowed', async () => {
    const res = await tryWithKey({ policy: POLICY, ...LOOKUP, history: lookups(1800, 60) });
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(res.body.decided_by).toEqual({ policy_id: 'playground', version: '0.1.0', rule: 'two-per-user' });
    expect(res.body.errors).toHaveLength(1);
    const [issue] = res.body.errors;
    expect(issue.code).toBe('AXAG_RATE_LIMITED');
    expect(issue.details).toMatchObject({ limit_id: 'two-per-user', per: 'user', window: '1h', max: 2, used: 2, remaining: 0 });
    // The older call (30 minutes ago) leaves the hour in 30 minutes, give or take one 60 s bucket.
    expect(issue.details.retry_after_seconds).toBeGreaterThanOrEqual(30 * 60);
    expect(issue.details.retry_after_seconds).toBeLessThanOrEqual(31 * 60);
    expect(res.body.limits[0]).toMatchObject({ exceeded: true, remaining: 0, retry_after_seconds: issue.details.retry_after_seconds });
    expect(res.body.reason).toContain('at most 2 calls per user in 1h');

    // Past calls without a context are the tried user's; u1's two calls leave u2's allowance alone.
    const u1Calls = lookups(1800, 60).map((past) => ({ ...past, context: { user_id: 'u1' } }));
    const other = await tryWithKey({ policy: POLICY, ...LOOKUP, context: { user_id: 'u2' }, history: u1Calls });
    expect(other.body.decision).toBe('allow');
    expect(other.body.limits[0]).toMatchObject({ used: 0, remaining: 2 });
  });

  it('holds a call past a soft limit for approval', async () => {
    const refund = (amount: number, secondsAgo?: number) => ({
      tool: 'payments.refund',
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: amount, reason: 'duplicate' },
      ...(secondsAgo === undefined ? {} : { seconds_ago: secondsAgo }),
    });
    const res = await tryWithKey({ policy: POLICY, ...refund(3000), history: [refund(8000, 3600)] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      decision: 'require_approval',
      decided_by: { rule: 'refund-budget' },
      approval: { roles: ['finance'], approvers_required: 1, escalated: false },
      side_effect: { level: 'external', source: 'contract' },
      errors: [],
    });
    expect(res.body.limits).toEqual([expect.objectContaining({ kind: 'sum', used: 8000, amount: 3000, remaining: 2000, exceeded: true })]);
    const within = await tryWithKey({ policy: POLICY, ...refund(2000), history: [refund(8000, 3600)] });
    expect(within.body.decision).toBe('allow');
  });

  it('evaluates a CEL history rule over the simulated calls of the session', async () => {
    const checkout = { policy: POLICY, tool: 'cart.begin_checkout', arguments: {}, context: { session_id: 's1' } };
    const recent = await tryWithKey({ ...checkout, history: [{ tool: 'cart.begin_checkout', seconds_ago: 20 }] });
    expect(recent.body.decision).toBe('deny');
    expect(recent.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_POLICY_DENIED']);
    expect(recent.body.trace.at(-1)).toMatchObject({ step: 'rule', id: 'one-checkout-per-minute', outcome: 'matched' });
    const older = await tryWithKey({ ...checkout, history: [{ tool: 'cart.begin_checkout', seconds_ago: 120 }] });
    expect(older.body.decision).toBe('allow');
    expect(older.body.trace.at(-1)).toMatchObject({ id: 'one-checkout-per-minute', outcome: 'not_matched' });
    // Another session's checkout is not this session's.
    const elsewhere = await tryWithKey({
      ...checkout,
      history: [{ tool: 'cart.begin_checkout', context: { session_id: 's2' }, seconds_ago: 20 }],
    });
    expect(elsewhere.body.decision).toBe('allow');
  });

  it("uses the request's side-effect level for a tool without a published contract, else none, and says which", async () => {
    const ceiling = { ...POLICY, capability: { tools: ['*'], side_effect_ceiling: 'write' } };
    const given = await tryWithKey({ policy: ceiling, tool: 'files.delete', side_effect_level: 'destructive' });
    expect(given.body.side_effect).toEqual({ level: 'destructive', source: 'request', contract_version: null });
    expect(given.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_SIDE_EFFECT_CEILING']);
    const unsaid = await tryWithKey({ policy: ceiling, tool: 'files.delete' });
    expect(unsaid.body.side_effect).toEqual({ level: 'none', source: 'default', contract_version: null });
    expect(unsaid.body.decision).toBe('allow');
    // A published contract wins over what the request says.
    const published = await tryWithKey({ policy: ceiling, ...LOOKUP, side_effect_level: 'destructive' });
    expect(published.body.side_effect).toMatchObject({ level: 'read_only', source: 'contract' });
  });

  it('refuses a draft that does not compile with 422 policy_invalid and its problems, storing nothing', async () => {
    const broken = { ...POLICY, rules: [{ id: 'bad', tools: ['orders.*'], when: 'args.x >', decision: 'deny' }] };
    const res = await tryWithKey({ policy: broken, ...LOOKUP });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('policy_invalid');
    expect(res.body.error.details.problems[0]).toMatchObject({ path: 'rules.bad.when', message: expect.any(String) });
    const shapeless = await tryWithKey({ policy: { id: 'x', version: '1', limits: 'many' }, ...LOOKUP });
    expect(shapeless.status).toBe(422);
    expect(shapeless.body.error.details.problems.map((p: { path: string }) => p.path)).toEqual(
      expect.arrayContaining(['version', 'limits']),
    );
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } })).toBe(0);
    expect(await db().historyCounter.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db().studioDocument.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it('answers bad input with 400 bad_request', async () => {
    const tooMany = Array.from({ length: 1001 }, () => ({ tool: 'orders.lookup', seconds_ago: 1 }));
    const cases: [string, unknown][] = [
      ['no tool', { policy: POLICY }],
      ['policy not an object', { policy: [POLICY], tool: 'orders.lookup' }],
      ['arguments not an object', { policy: POLICY, tool: 'orders.lookup', arguments: 'x' }],
      ['unknown context field', { policy: POLICY, tool: 'orders.lookup', context: { user: 'u1' } }],
      ['unknown side-effect level', { policy: POLICY, tool: 'orders.lookup', side_effect_level: 'nuclear' }],
      ['1,001 simulated calls', { policy: POLICY, tool: 'orders.lookup', history: tooMany }],
      ['a call 32 days ago', { policy: POLICY, tool: 'orders.lookup', history: [{ tool: 'orders.lookup', seconds_ago: 32 * 86_400 }] }],
      ['a call in the future', { policy: POLICY, tool: 'orders.lookup', history: [{ tool: 'orders.lookup', seconds_ago: -5 }] }],
      ['an unknown field', { policy: POLICY, tool: 'orders.lookup', now: 1 }],
    ];
    for (const [label, body] of cases) {
      const res = await tryWithKey(body);
      expect(res.status, label).toBe(400);
      expect(res.body.error.code, label).toBe('bad_request');
    }
    const malformed = await call(tryPolicy, { key: authorKey, rawBody: '{"policy": ' });
    expect(malformed.status).toBe(400);
  });

  it('needs an author key or a signed-in author: 401 without, 403 for a validate key or a viewer', async () => {
    const body = { policy: POLICY, ...LOOKUP };
    const anonymous = await call(tryPolicy, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    const agent = await tryWithKey(body, t.agentKey);
    expect(agent.status).toBe(403);
    expect(agent.body.error.details).toEqual({ required_scope: 'author' });
    const viewer = await call(tryPolicy, { body, headers: asSession(viewerCookie) });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe('forbidden');
    const author = await call(tryPolicy, { body, headers: asSession(authorCookie) });
    expect(author.status).toBe(200);
    expect(author.body.decision).toBe('allow');
  });

  it("refuses a signed-in author's request from another origin", async () => {
    const crossSite: Record<string, string>[] = [
      { cookie: authorCookie, origin: 'http://evil.example' },
      { cookie: authorCookie, origin: 'null' },
      { cookie: authorCookie, 'sec-fetch-site': 'cross-site' },
      { cookie: authorCookie, origin: ORIGIN, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const res = await call(tryPolicy, { body: { policy: POLICY, ...LOOKUP }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('cross_site_request');
    }
  });
});
