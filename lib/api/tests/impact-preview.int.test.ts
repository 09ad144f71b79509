import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { previewContractImpactHandler as impact } from '@/lib/api/handlers/contracts';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;

const lookup = (orderId: string) =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: `c-${Math.random()}`,
      arguments: { tenant_id: 'acme', order_id: orderId },
      context: { tenant_id: 'acme' },
    },
  });

beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  await publishContract(t.tenant.id, lookupOrderContract);
  // Recorded history: two short ids, one long id, one id the published pattern refuses.
  for (const id of ['ord_abc123', 'ord_def456', 'ord_abcdefgh12', 'ORDER-1']) expect((await lookup(id)).status).toBe(200);
});

const draft = (pattern: string) => ({
  ...lookupOrderContract,
  version: '2.0.0',
  input: {
    ...lookupOrderContract.input,
    properties: { ...(lookupOrderContract.input.properties as object), order_id: { type: 'string', pattern } },
  },
});

describe('impact preview (decision replay)', () => {
  it('reports which recorded calls a tightened draft would newly refuse, per error code', async () => {
    const response = await call(impact, { key: authorKey, params: { id: 'orders.lookup' }, body: draft('^ord_[a-z0-9]{8,24}$') });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      tool: 'orders.lookup',
      replayed: 4,
      notReplayable: 0,
      withoutArguments: 0,
      withoutContext: 0,
      changed: 2,
      newlyRefused: 2,
      newlyPassing: 0,
    });
    expect(response.body.codes).toEqual([{ code: 'AXAG_PATTERN_MISMATCH', added: 2, removed: 0 }]);
    expect(response.body.examples.map((e: { before: string[]; after: string[] }) => [e.before, e.after])).toEqual([
      [[], ['AXAG_PATTERN_MISMATCH']],
      [[], ['AXAG_PATTERN_MISMATCH']],
    ]);
  });

  it('reports calls a loosened draft would let through, and nothing for an unchanged one', async () => {
    const loosened = await call(impact, { key: authorKey, params: { id: 'orders.lookup' }, body: draft('^.+$') });
    expect(loosened.body).toMatchObject({
      changed: 1,
      newlyRefused: 0,
      newlyPassing: 1,
      codes: [{ code: 'AXAG_PATTERN_MISMATCH', added: 0, removed: 1 }],
    });
    const same = await call(impact, {
      key: authorKey,
      params: { id: 'orders.lookup' },
      body: { ...lookupOrderContract, version: '2.0.0' },
    });
    expect(same.body).toMatchObject({ replayed: 4, changed: 0, codes: [] });
  });

  it('refuses a draft for another tool or one that does not compile', async () => {
    expect((await call(impact, { key: authorKey, params: { id: 'orders.other' }, body: lookupOrderContract })).status).toBe(400);
    expect(
      (await call(impact, { key: authorKey, params: { id: 'orders.lookup' }, body: { ...lookupOrderContract, input: { type: 'nope' } } }))
        .status,
    ).toBe(422);
    expect((await call(impact, { key: t.agentKey, params: { id: 'orders.lookup' }, body: lookupOrderContract })).status).toBe(403);
  });
});

describe('impact preview of preconditions that read the context', () => {
  let r: Awaited<ReturnType<typeof createTestTenant>>;
  let refundAuthor: string;
  const refund = (status: string) =>
    call(validatePre, {
      key: r.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: `r-${Math.random()}`,
        arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 100, reason: 'duplicate', card: { last4: '4242' } },
        context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: status } },
      },
    });

  beforeAll(async () => {
    r = await createTestTenant({ storeRawArguments: true });
    refundAuthor = (await createApiKey({ tenantId: r.tenant.id, name: 'ci', scopes: ['author'] })).key;
    await publishContract(r.tenant.id, refundPaymentContract);
    // Four captured payments (they pass the contract and wait for approval), one that is not.
    for (const status of ['captured', 'captured', 'captured', 'captured', 'pending']) expect((await refund(status)).status).toBe(200);
  });

  it('replays with the recorded context: the same contract with only its version bumped changes nothing', async () => {
    const same = await call(impact, {
      key: refundAuthor,
      params: { id: 'payments.refund' },
      body: { ...refundPaymentContract, version: '2.2.0' },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ replayed: 5, notReplayable: 0, changed: 0, newlyRefused: 0, newlyPassing: 0, codes: [] });
    // A precondition that no longer reads the state lets the refused call through, and only it.
    const loosened = await call(impact, {
      key: refundAuthor,
      params: { id: 'payments.refund' },
      body: { ...refundPaymentContract, version: '2.2.0', preconditions: [] },
    });
    expect(loosened.body).toMatchObject({
      replayed: 5,
      changed: 1,
      newlyRefused: 0,
      newlyPassing: 1,
      codes: [{ code: 'AXAG_PRECONDITION_FAILED', added: 0, removed: 1 }],
    });
  });

  it('counts calls recorded without their context as not replayable instead of replaying them with an empty one', async () => {
    const newest = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: r.tenant.id }, kind: 'pre', tool: 'payments.refund' },
      orderBy: { seq: 'desc' },
    });
    // As a record written before contexts were kept: arguments, no payload.
    await db().evidence.update({ where: { id: newest.id }, data: { payload: null } });
    const same = await call(impact, {
      key: refundAuthor,
      params: { id: 'payments.refund' },
      body: { ...refundPaymentContract, version: '2.2.0' },
    });
    expect(same.body).toMatchObject({ replayed: 4, notReplayable: 1, withoutArguments: 0, withoutContext: 1, changed: 0 });
  });
});

describe('impact preview of calls refused for a number a double cannot hold', () => {
  let n: Awaited<ReturnType<typeof createTestTenant>>;
  let numbersAuthor: string;
  const CONTRACT: ToolContract = {
    id: 'numbers.echo',
    version: '1.0.0',
    description: 'Echoes a number back, for the impact preview.',
    owner: 'team-tests',
    input: { type: 'object', properties: { n: { type: 'number' }, tenant_id: { type: 'string' } } },
    output: { type: 'object' },
    errors: { type: 'object' },
    annotations: {
      kind: 'query',
      side_effect_level: 'none',
      idempotent: true,
      confirmation_required: false,
      approval_required: false,
      approver_roles: [],
    },
  };

  beforeAll(async () => {
    n = await createTestTenant({ storeRawArguments: true });
    numbersAuthor = (await createApiKey({ tenantId: n.tenant.id, name: 'ci', scopes: ['author'] })).key;
    await publishContract(n.tenant.id, CONTRACT);
    // Refused for their numbers (in the arguments, or in the context), with and without a context; one ordinary call.
    for (const [i, rest] of [
      '"arguments":{"n":1e309}',
      '"arguments":{"n":9007199254740993},"context":{"tenant_id":"acme"}',
      '"arguments":{"n":1},"context":{"state":{"total":-1e400}}',
      '"arguments":{"n":1},"context":{"tenant_id":"acme"}',
    ].entries()) {
      const answer = await call(validatePre, { key: n.agentKey, rawBody: `{"tool":"numbers.echo","call_id":"num-${i}",${rest}}` });
      expect(answer.status).toBe(200);
      expect(answer.body.decision).toBe(i < 3 ? 'deny' : 'allow');
    }
  });

  it('replays them as refused for their numbers again, not as the rounded values parsing the stored text gives', async () => {
    const same = await call(impact, { key: numbersAuthor, params: { id: 'numbers.echo' }, body: { ...CONTRACT, version: '2.0.0' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ replayed: 4, notReplayable: 0, changed: 0, newlyRefused: 0, newlyPassing: 0, codes: [] });
    // A draft that would refuse every number refuses the ordinary call; the others stay refused for their numbers.
    const stricter = await call(impact, {
      key: numbersAuthor,
      params: { id: 'numbers.echo' },
      body: { ...CONTRACT, version: '2.0.0', input: { type: 'object', properties: { n: { type: 'string' } } } },
    });
    expect(stricter.body).toMatchObject({
      replayed: 4,
      changed: 1,
      newlyRefused: 1,
      newlyPassing: 0,
      codes: [{ code: 'AXAG_INVALID_TYPE', added: 1, removed: 0 }],
    });
  });
});

describe('impact preview of costly preconditions', () => {
  let c: Awaited<ReturnType<typeof createTestTenant>>;
  let costlyAuthor: string;
  const CALLS = 30;
  const list = `[${Array.from({ length: 200 }, (_, i) => i).join(', ')}]`;
  // About 360,000 steps, always true: under one call's budget of 1,000,000, so every call passes it live.
  const costly = { id: 'costly', expression: `${list}.all(a, ${list}.all(b, a + b >= 0))`, message: 'always holds' };

  beforeAll(async () => {
    c = await createTestTenant({ storeRawArguments: true });
    costlyAuthor = (await createApiKey({ tenantId: c.tenant.id, name: 'ci', scopes: ['author'] })).key;
    await publishContract(c.tenant.id, lookupOrderContract);
    for (let i = 0; i < CALLS; i++) {
      const answer = await call(validatePre, {
        key: c.agentKey,
        body: {
          tool: 'orders.lookup',
          call_id: `costly-${i}`,
          arguments: { tenant_id: 'acme', order_id: `ord_costly${i}` },
          context: { tenant_id: 'acme' },
        },
      });
      expect(answer.body.decision).toBe('allow');
    }
  });

  it('replays every call on one budget, so a viewer cannot make the server evaluate 1,000 calls times a full budget', async () => {
    const response = await call(impact, {
      key: costlyAuthor,
      params: { id: 'orders.lookup' },
      body: { ...lookupOrderContract, version: '2.0.0', preconditions: [costly] },
    });
    expect(response.status).toBe(200);
    // A budget per call passed all of them (changed 0). On one budget the first calls replayed
    // pass, and once it is spent the condition fails closed on the rest, as policy previews do.
    expect(response.body.replayed).toBe(CALLS);
    expect(response.body.changed).toBeGreaterThan(0);
    expect(response.body.changed).toBeLessThan(CALLS);
    expect(response.body.codes).toEqual([{ code: 'AXAG_PRECONDITION_FAILED', added: response.body.changed, removed: 0 }]);
  });

  it("refuses, as the gate would, every call whose precondition costs more than one call's budget", async () => {
    // 500 x 500 iterations, about 2,250,000 steps: past one call's budget of 1,000,000, so
    // validate/pre would refuse each call. On the replay's one budget alone the first four passed.
    const hundred = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
    const expression = `cel.bind(l, ${hundred}, cel.bind(w, l + l + l + l + l, w.all(a, w.all(b, a + b >= 0))))`;
    const costlier = { id: 'costlier', expression, message: 'always holds' };
    const response = await call(impact, {
      key: costlyAuthor,
      params: { id: 'orders.lookup' },
      body: { ...lookupOrderContract, version: '2.0.0', preconditions: [costlier] },
    });
    expect(response.status).toBe(200);
    expect([response.body.replayed, response.body.changed, response.body.newlyRefused]).toEqual([CALLS, CALLS, CALLS]);
  });
});
