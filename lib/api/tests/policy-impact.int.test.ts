import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import {
  previewPolicyImpactHandler as impact,
  publishPolicyVersionHandler as publishPolicy,
  savePolicyDraftHandler as savePolicy,
} from '@/lib/api/handlers/policies';
import { asSession, signIn } from './member-sessions';

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;

const ENFORCED = {
  id: 'support',
  version: '1.0.0',
  rules: [{ id: 'reads-ok', tools: ['orders.*'], decision: 'allow', reason: 'reads are fine' }],
};

/** The enforced policy made stricter: no payment details, and two lookups per user an hour. */
const STRICTER = {
  ...ENFORCED,
  version: '1.1.0',
  limits: [{ id: 'two-lookups', tools: ['orders.lookup'], per: 'user', window: '1h', max_calls: 2 }],
  rules: [
    {
      id: 'no-payment-details',
      tools: ['orders.lookup'],
      when: "has(args.include) && 'payments' in args.include",
      decision: 'deny',
      reason: 'payment details are not for agents',
    },
    ...ENFORCED.rules,
  ],
};

async function publish(tenant: Tenant, key: string, document: Record<string, unknown>) {
  const saved = await call(savePolicy, { key, body: document });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  const published = await call(publishPolicy, {
    key,
    params: { id: String(document.id), version: String(document.version) },
    body: {},
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

async function setUp() {
  const tenant = await createTestTenant({ storeRawArguments: true });
  const authorKey = (await createApiKey({ tenantId: tenant.tenant.id, name: 'ci', scopes: ['author'] })).key;
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(tenant.tenant.id, contract);
  await publish(tenant, authorKey, ENFORCED);
  let n = 0;
  const lookup = async (user: string, args: Record<string, unknown> = {}) => {
    const answer = await call(validatePre, {
      key: tenant.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: `call-${++n}`,
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123', ...args },
        context: { tenant_id: 'acme', user_id: user },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { decision: string; evidence_id: string };
  };
  return { tenant, authorKey, lookup };
}

let t: Tenant;
let authorKey: string;
/** Evidence ids of the recorded calls, oldest first. */
const recorded: string[] = [];

beforeAll(async () => {
  const made = await setUp();
  ({ tenant: t, authorKey } = made);
  // All allowed by the enforced policy but the fifth, which the contract refuses (its order id).
  const decisions: string[] = [];
  for (const [user, args] of [
    ['u1', {}],
    ['u1', { include: ['items', 'payments'] }],
    ['u1', {}],
    ['u2', {}],
    ['u3', { order_id: 'ORDER-1' }],
    ['u1', {}],
  ] as const) {
    const answer = await made.lookup(user, args);
    decisions.push(answer.decision);
    recorded.push(answer.evidence_id);
  }
  expect(decisions).toEqual(['allow', 'allow', 'allow', 'allow', 'deny', 'allow']);
  // Calls no policy can be replayed on: an unknown tool (recorded without arguments) and a number a double cannot hold.
  const unknown = await call(validatePre, {
    key: t.agentKey,
    body: { tool: 'orders.nope', call_id: 'unknown', arguments: {}, context: { user_id: 'u1' } },
  });
  expect(unknown.body.decision).toBe('deny');
  const numbers = await call(validatePre, {
    key: t.agentKey,
    rawBody: '{"tool":"orders.lookup","call_id":"big","arguments":{"tenant_id":"acme","order_id":"ord_abc123","n":1e309}}',
  });
  expect(numbers.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_NUMBER_UNREPRESENTABLE']);
});

const preview = (body: Record<string, unknown>, key = authorKey, id = String(body.id)) => call(impact, { key, params: { id }, body });

describe('POST /api/v1/policies/{id}/impact', () => {
  it('replays the recorded calls against a stricter draft: a deny rule and a per-user limit counted on the draft side', async () => {
    const res = await preview(STRICTER);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      policy: { id: 'support', version: '1.1.0' },
      replaces: '1.0.0',
      replayed: 6,
      notReplayable: 2,
      withoutArguments: 1,
      withoutContext: 0,
      refusedBeforePolicies: 1,
      redactedArguments: 0,
      history: 'replayed_calls',
      // The payment details call is denied by the rule, so it is not counted: u1's third plain
      // lookup (the sixth call) is the first past the limit, not the second one (the third call).
      changed: 2,
      transitions: [{ from: 'allow', to: 'deny', calls: 2 }],
      codes: [
        { code: 'AXAG_POLICY_DENIED', added: 1, removed: 0 },
        { code: 'AXAG_RATE_LIMITED', added: 1, removed: 0 },
      ],
    });
    expect(res.body.examples).toEqual([
      {
        evidenceId: recorded[5],
        callId: 'call-6',
        tool: 'orders.lookup',
        at: expect.any(String),
        before: { decision: 'allow', policy: 'support', rule: 'reads-ok', codes: [] },
        after: { decision: 'deny', policy: 'support', rule: 'two-lookups', codes: ['AXAG_RATE_LIMITED'] },
      },
      {
        evidenceId: recorded[1],
        callId: 'call-2',
        tool: 'orders.lookup',
        at: expect.any(String),
        before: { decision: 'allow', policy: 'support', rule: 'reads-ok', codes: [] },
        after: { decision: 'deny', policy: 'support', rule: 'no-payment-details', codes: ['AXAG_POLICY_DENIED'] },
      },
    ]);
    const recordedAt = await db().evidence.findUniqueOrThrow({ where: { id: recorded[5] }, select: { createdAt: true } });
    expect(res.body.examples[0].at).toBe(recordedAt.createdAt.toISOString());
  });

  it('reports nothing for a draft that decides the same, and stores nothing', async () => {
    const before = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
    const counters = await db().historyCounter.count({ where: { tenantId: t.tenant.id } });
    const res = await preview({ ...ENFORCED, version: '1.2.0' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ replayed: 6, changed: 0, transitions: [], codes: [], examples: [] });
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } })).toBe(before);
    expect(await db().historyCounter.count({ where: { tenantId: t.tenant.id } })).toBe(counters);
  });

  it('adds a new policy beside the enforced ones, and reads the side-effect level from the recorded contract', async () => {
    // orders.lookup is read_only in its contract: above a ceiling of none, every call is refused,
    // and the call the contract already refused keeps its decision but gains the code.
    const res = await preview({ id: 'reads-ceiling', version: '0.1.0', capability: { side_effect_ceiling: 'none' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      policy: { id: 'reads-ceiling', version: '0.1.0' },
      replaces: null,
      replayed: 6,
      changed: 6,
      transitions: [
        { from: 'allow', to: 'deny', calls: 5 },
        { from: 'deny', to: 'deny', calls: 1 },
      ],
      codes: [{ code: 'AXAG_SIDE_EFFECT_CEILING', added: 6, removed: 0 }],
    });
    const refused = res.body.examples.find((e: { evidenceId: string }) => e.evidenceId === recorded[4]);
    expect(refused.before.codes).toEqual(['AXAG_PATTERN_MISMATCH']);
    expect(refused.after.codes).toEqual(['AXAG_PATTERN_MISMATCH', 'AXAG_SIDE_EFFECT_CEILING']);
    // A ceiling the tool is under changes nothing.
    expect((await preview({ id: 'reads-ceiling', version: '0.1.0', capability: { side_effect_ceiling: 'read_only' } })).body.changed).toBe(
      0,
    );
  });

  it('counts calls recorded without their context as not replayable', async () => {
    const other = await setUp();
    await other.lookup('u1');
    const second = await other.lookup('u1');
    await db().evidence.update({ where: { id: second.evidence_id }, data: { payload: null } });
    const res = await preview({ ...STRICTER, limits: [{ ...STRICTER.limits[0], max_calls: 0 }] }, other.authorKey);
    expect(res.body).toMatchObject({ replayed: 1, notReplayable: 1, withoutContext: 1, changed: 1 });
  });

  it("never replays another tenant's calls", async () => {
    const other = await setUp();
    for (const user of ['u1', 'u1', 'u1', 'u1']) await other.lookup(user);
    const ours = await preview(STRICTER);
    expect(ours.body).toMatchObject({ replayed: 6, changed: 2 });
    const theirs = await preview(STRICTER, other.authorKey);
    expect(theirs.body).toMatchObject({ replayed: 4, changed: 2, notReplayable: 0 });
    const ids = new Set(recorded);
    expect(theirs.body.examples.every((e: { evidenceId: string }) => !ids.has(e.evidenceId))).toBe(true);
    // Our policies are not theirs either: they enforce their own copy, and a draft of a policy id they lack is added.
    const fresh = await createTestTenant({ storeRawArguments: true });
    const freshAuthor = (await createApiKey({ tenantId: fresh.tenant.id, name: 'ci', scopes: ['author'] })).key;
    expect((await preview(STRICTER, freshAuthor)).body).toMatchObject({ replaces: null, replayed: 0, notReplayable: 0, changed: 0 });
  });

  it('refuses a draft that does not compile (422 policy_invalid) or names another id (400)', async () => {
    const badCondition = await preview({ ...STRICTER, rules: [{ id: 'broken', tools: ['*'], when: 'args.(', decision: 'deny' }] });
    expect(badCondition.status).toBe(422);
    expect(badCondition.body.error.code).toBe('policy_invalid');
    expect(badCondition.body.error.details.problems[0]).toMatchObject({ path: 'rules.broken.when' });
    const badShape = await preview({ id: 'support', version: 'one', rules: 'none' });
    expect(badShape.status).toBe(422);
    expect(badShape.body.error.code).toBe('policy_invalid');
    const mismatch = await preview(STRICTER, authorKey, 'other');
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('bad_request');
    const notObject = await call(impact, { key: authorKey, params: { id: 'support' }, body: ['support'] });
    expect(notObject.status).toBe(400);
  });

  it('needs an author key or a signed-in member (401, 403), from the same origin', async () => {
    const anonymous = await call(impact, { params: { id: 'support' }, body: STRICTER });
    expect(anonymous.status).toBe(401);
    const agent = await preview(STRICTER, t.agentKey);
    expect(agent.status).toBe(403);
    expect(agent.body.error.details).toEqual({ required_scope: 'author' });
    const viewer = `viewer-${t.tenant.slug}@test.local`;
    await addMember({ tenantId: t.tenant.id, email: viewer, password: 'a-long-password', role: 'viewer' });
    const { cookie } = await signIn(viewer, 'a-long-password');
    // Viewers may replay (it reads recorded calls and changes nothing), as with contracts.
    const signedIn = await call(impact, { params: { id: 'support' }, body: STRICTER, headers: asSession(cookie) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.changed).toBe(2);
    const crossSite = await call(impact, { params: { id: 'support' }, body: STRICTER, headers: { cookie, origin: 'http://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('cross_site_request');
  });
});
