// Hard limits on real validate/pre calls: what a refusal says (used, remaining, when to retry),
// windows rolling over, and exact counts under concurrent calls in one process.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import {
  counted,
  createHistoryTenant,
  decide,
  decisionsRecorded,
  pre,
  publishPolicyDocument,
  tally,
  type HistoryTenant,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;

beforeEach(async () => {
  t = await createHistoryTenant();
});

const limitPolicy = (limit: Record<string, unknown>) => ({ id: 'limits', version: '1.0.0', limits: [limit] });
const transfer = (user: string, amount: number) => pre(t, { user, args: { account_id: 'acc-1', amount } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('max_calls', () => {
  it('refuses past the maximum with AXAG_RATE_LIMITED, used, remaining and retry_after_seconds; refusals are not counted', async () => {
    await publishPolicyDocument(t, limitPolicy({ id: 'three-per-user', tools: ['wallet.*'], per: 'user', window: '1h', max_calls: 3 }));
    for (const tool of ['wallet.view', 'wallet.transfer', 'wallet.view'])
      expect((await decide(t, { tool, user: 'u1' })).decision).toBe('allow');
    for (let i = 0; i < 2; i++) {
      const refused = await pre(t, { tool: 'wallet.view', user: 'u1' });
      expect(refused.body.decision).toBe('deny');
      expect(refused.body.errors).toHaveLength(1);
      const issue = refused.body.errors[0];
      expect(issue.code).toBe('AXAG_RATE_LIMITED');
      expect(issue.details).toMatchObject({ limit_id: 'three-per-user', per: 'user', window: '1h', max: 3, used: 3, remaining: 0 });
      // The oldest call leaves the hour between 3600 and 3600 + one bucket (60 s) after it was made.
      expect(issue.details.retry_after_seconds).toBeGreaterThan(3590);
      expect(issue.details.retry_after_seconds).toBeLessThanOrEqual(3661);
      expect(refused.body.policy).toMatchObject({ policy_id: 'limits', rule: 'three-per-user' });
    }
    // Another user, and a tool the limit does not name, are not limited by u1's calls.
    expect((await decide(t, { tool: 'wallet.view', user: 'u2' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'accounts.export', user: 'u1' })).decision).toBe('allow');
    expect((await counted(t.tenant.id)).count).toBe(4);
    expect(await decisionsRecorded(t.tenant.id)).toEqual({ allow: 5, deny: 2 });
  });
});

describe('what counts', () => {
  it('a transformed call counts as allowed: it runs, with the rewritten arguments', async () => {
    await publishPolicyDocument(t, {
      id: 'noted',
      version: '1.0.0',
      limits: [{ id: 'two', tools: ['wallet.transfer'], per: 'user', window: '1h', max_calls: 2 }],
      rules: [{ id: 'note', tools: ['wallet.transfer'], decision: 'transform', set: { note: 'checked' } }],
    });
    const first = await pre(t, { user: 'u1' });
    expect(first.body.decision).toBe('transform');
    expect(first.body.arguments).toMatchObject({ note: 'checked' });
    expect((await decide(t, { user: 'u1' })).decision).toBe('transform');
    expect((await decide(t, { user: 'u1' })).codes).toEqual(['AXAG_RATE_LIMITED']);
    expect((await counted(t.tenant.id)).count).toBe(2);
  });

  const minimumCharge = (limit: Record<string, unknown>) => ({
    id: 'minimum-charge',
    version: '1.0.0',
    limits: [{ id: 'budget', tools: ['wallet.transfer'], per: 'user', window: '1h', max_sum: { path: 'amount', value: 100 }, ...limit }],
    rules: [
      { id: 'at-least-60', tools: ['wallet.transfer'], when: 'double(args.amount) < 60.0', decision: 'transform', set: { amount: 60 } },
    ],
  });

  it('a transform that raises an amount is held to a budget with the amount the call runs with, not the one the agent sent', async () => {
    await publishPolicyDocument(t, minimumCharge({}));
    const first = await transfer('u1', 1);
    expect(first.body.decision).toBe('transform');
    expect(first.body.arguments).toMatchObject({ amount: 60 });
    // 60 of 100 spent: the agent's 1 would fit, the 60 it runs with does not.
    const second = await transfer('u1', 1);
    expect(second.body.decision).toBe('deny');
    expect(second.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_BUDGET_EXCEEDED']);
    expect(second.body.errors[0].details).toMatchObject({ limit_id: 'budget', used: 60, remaining: 40 });
    expect(second.body.arguments).toBeUndefined();
    expect((await counted(t.tenant.id)).total).toBe(60);
    expect((await transfer('u2', 1)).body.decision).toBe('transform');
    expect((await counted(t.tenant.id)).total).toBe(120);
  });

  it('a soft budget holds such a call for approval', async () => {
    await publishPolicyDocument(t, minimumCharge({ when_exceeded: 'require_approval', roles: ['admin'] }));
    expect((await transfer('u1', 1)).body.decision).toBe('transform');
    const held = await transfer('u1', 1);
    expect(held.body.decision).toBe('require_approval');
    expect(held.body.approval.id).toEqual(expect.any(String));
    expect((await counted(t.tenant.id)).total).toBe(60);
  });
});

describe('max_sum', () => {
  it('refuses a call asking more than remains with AXAG_BUDGET_EXCEEDED while a smaller one passes', async () => {
    await publishPolicyDocument(
      t,
      limitPolicy({ id: 'budget', tools: ['wallet.transfer'], per: 'user', window: '1d', max_sum: { path: 'amount', value: 100 } }),
    );
    expect((await transfer('u1', 60)).body.decision).toBe('allow');
    const tooMuch = await transfer('u1', 50);
    expect(tooMuch.body.decision).toBe('deny');
    const issue = tooMuch.body.errors[0];
    expect(issue.code).toBe('AXAG_BUDGET_EXCEEDED');
    expect(issue.path).toBe('$.amount');
    expect(issue.details).toMatchObject({ limit_id: 'budget', per: 'user', window: '1d', max: 100, used: 60, remaining: 40 });
    expect(issue.details.retry_after_seconds).toBeGreaterThan(86_000);
    // What remains is still there for a call that fits.
    expect((await transfer('u1', 40)).body.decision).toBe('allow');
    const spent = await transfer('u1', 0.5);
    expect(spent.body.errors[0].details).toMatchObject({ used: 100, remaining: 0 });
    // A call asking more than the whole budget can never pass: there is no time to retry at.
    const never = await transfer('u2', 150);
    expect(never.body.errors[0].details).toMatchObject({ used: 0, remaining: 100, retry_after_seconds: null });
    expect(await counted(t.tenant.id)).toMatchObject({ count: 2, total: 100 });
  });
});

describe('max_sum in decimals', () => {
  it('a budget of 0.3 takes 0.1 and then 0.2 (in doubles 0.30000000000000004), refuses what passes it, and says what remains as written', async () => {
    await publishPolicyDocument(
      t,
      limitPolicy({ id: 'dimes', tools: ['wallet.transfer'], per: 'user', window: '1h', max_sum: { path: 'amount', value: 0.3 } }),
    );
    const first = await transfer('u1', 0.1);
    expect(first.body.decision, JSON.stringify(first.body)).toBe('allow');
    const tooMuch = await transfer('u1', 0.25);
    expect(tooMuch.body.errors[0].details).toMatchObject({ used: 0.1, remaining: 0.2 });
    expect(tooMuch.body.errors[0].message).toContain('0.2 remains and this call asks for 0.25');
    const fits = await transfer('u1', 0.2);
    expect(fits.body.decision, JSON.stringify(fits.body)).toBe('allow');
    const spent = await transfer('u1', 0.01);
    expect(spent.body.decision).toBe('deny');
    expect(spent.body.errors[0].details).toMatchObject({ used: 0.3, remaining: 0 });
  });
});

describe('windows rolling over', () => {
  it('frees a short window once its calls have left it, at about the time the refusal said', async () => {
    await publishPolicyDocument(t, {
      id: 'short',
      version: '1.0.0',
      limits: [
        { id: 'two-per-2s', tools: ['wallet.view'], per: 'user', window: '2s', max_calls: 2 },
        { id: 'ten-per-3s', tools: ['wallet.transfer'], per: 'user', window: '3s', max_sum: { path: 'amount', value: 10 } },
      ],
    });
    const fill = async () => {
      expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('allow');
      expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('allow');
      expect((await transfer('u1', 10)).body.decision).toBe('allow');
      const calls = await pre(t, { tool: 'wallet.view', user: 'u1' });
      const sum = await transfer('u1', 1);
      const refusedAt = Date.now();
      expect(calls.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_RATE_LIMITED']);
      expect(sum.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_BUDGET_EXCEEDED']);
      return { calls: calls.body.errors[0].details.retry_after_seconds, sum: sum.body.errors[0].details.retry_after_seconds, refusedAt };
    };
    for (let round = 0; round < 2; round++) {
      const retry = await fill();
      // Buckets of 1 s: a call leaves between window and window + 1 s after it was made.
      expect(retry.calls).toBeGreaterThanOrEqual(1);
      expect(retry.calls).toBeLessThanOrEqual(3);
      expect(retry.sum).toBeGreaterThanOrEqual(2);
      expect(retry.sum).toBeLessThanOrEqual(4);
      await sleep(Math.max(0, retry.calls * 1000 + 50 - (Date.now() - retry.refusedAt)));
      expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('allow');
      await sleep(Math.max(0, retry.sum * 1000 + 50 - (Date.now() - retry.refusedAt)));
      expect((await transfer('u1', 10)).body.decision).toBe('allow');
      // Let the calls of this round leave the windows before the next round fills them again.
      if (round === 0) await sleep(4100);
    }
    expect(await counted(t.tenant.id)).toMatchObject({ count: 10, total: 40 });
  });
});

describe('concurrent calls in one process', () => {
  it('a budget: ten concurrent transfers of 30 against 100 allow exactly three, and the 10 left still passes', async () => {
    await publishPolicyDocument(
      t,
      limitPolicy({ id: 'budget', tools: ['wallet.transfer'], per: 'tenant', window: '1h', max_sum: { path: 'amount', value: 100 } }),
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => transfer(`u${i}`, 30)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 3, deny: 7 });
    for (const denied of answers.filter((a) => a.body.decision === 'deny')) {
      expect(denied.body.errors[0].code).toBe('AXAG_BUDGET_EXCEEDED');
      expect(denied.body.errors[0].details).toMatchObject({ used: 90, remaining: 10 });
    }
    expect((await transfer('u1', 10)).body.decision).toBe('allow');
    expect((await transfer('u1', 0.01)).body.decision).toBe('deny');
    expect(await counted(t.tenant.id)).toMatchObject({ count: 4, total: 100 });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('a history condition: ten concurrent calls against history.count(...) >= 3 allow exactly three', async () => {
    await publishPolicyDocument(t, {
      id: 'three-views',
      version: '1.0.0',
      rules: [{ id: 'enough', tools: ['wallet.view'], when: "history.count('wallet.view', 'user', '1h') >= 3", decision: 'deny' }],
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => pre(t, { tool: 'wallet.view', user: 'u1' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 3, deny: 7 });
    for (const denied of answers.filter((a) => a.body.decision === 'deny')) expect(denied.body.policy.rule).toBe('enough');
    expect((await counted(t.tenant.id)).count).toBe(3);
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'pre' } })).toBe(10);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('a burst well under a history cap is allowed whole: calls decided again go in turn, none runs out of attempts', async () => {
    await publishPolicyDocument(t, {
      id: 'generous',
      version: '1.0.0',
      rules: [{ id: 'cap', tools: ['wallet.view'], when: "history.count('wallet.view', 'user', '1h') >= 1000", decision: 'deny' }],
    });
    const answers = await Promise.all(Array.from({ length: 40 }, () => pre(t, { tool: 'wallet.view', user: 'u1' })));
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.error?.details?.reason)).toEqual([]);
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 40 });
    expect((await counted(t.tenant.id)).count).toBe(40);
  });

  it('two limits on one call: each call is counted once in each, and neither is overrun', async () => {
    await publishPolicyDocument(t, {
      id: 'both',
      version: '1.0.0',
      limits: [
        { id: 'four-calls', tools: ['wallet.transfer'], per: 'user', window: '1h', max_calls: 4 },
        { id: 'budget', tools: ['wallet.transfer'], per: 'user', window: '1h', max_sum: { path: 'amount', value: 50 } },
      ],
    });
    const amounts = [20, 5, 20, 5, 20, 5, 20, 5, 20, 5, 20, 5];
    const answers = await Promise.all(amounts.map((amount) => transfer('u1', amount)));
    const allowed = answers.flatMap((a, i) => (a.body.decision === 'allow' ? [amounts[i] as number] : []));
    expect(allowed.length).toBeLessThanOrEqual(4);
    expect(allowed.reduce((s, a) => s + a, 0)).toBeLessThanOrEqual(50);
    // Whatever the order, the limits stop admitting only when one of them is full.
    const sum = allowed.reduce((s, a) => s + a, 0);
    expect(allowed.length === 4 || sum > 45).toBe(true);
    // Two series (a count and a sum): each allowed call is in both, once.
    expect((await counted(t.tenant.id)).count).toBe(allowed.length * 2);
    expect((await counted(t.tenant.id)).total).toBe(sum);
  });
});
