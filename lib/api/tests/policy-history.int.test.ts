// Each history function in published policies, decided on real validate/pre calls: what it
// counts, under which scope, and that refused calls are not counted as made.
import { beforeEach, describe, expect, it } from 'vitest';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { counted, createHistoryTenant, decide, pre, publishPolicyDocument, type HistoryTenant } from '@/lib/testing/history-fixtures';

let t: HistoryTenant;

beforeEach(async () => {
  t = await createHistoryTenant();
});

const denyWhen = (id: string, tools: string[], when: string, reason?: string) => ({
  id,
  version: '1.0.0',
  rules: [{ id: `${id}-rule`, tools, when, decision: 'deny', ...(reason ? { reason } : {}) }],
});

describe('history.count', () => {
  it('counts the allowed calls of the matching tools per user; refused calls are not counted', async () => {
    await publishPolicyDocument(t, denyWhen('two-wallet-calls', ['wallet.*'], "history.count(['wallet.*'], 'user', '1h') >= 2"));
    expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('allow');
    // The pattern counts both tools together.
    expect((await decide(t, { tool: 'wallet.transfer', user: 'u1' })).decision).toBe('allow');
    const third = await pre(t, { tool: 'wallet.view', user: 'u1' });
    expect(third.body.decision).toBe('deny');
    expect(third.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_POLICY_DENIED']);
    expect(third.body.policy).toMatchObject({ policy_id: 'two-wallet-calls', rule: 'two-wallet-calls-rule' });
    expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('deny');
    // Another user, and a tool outside the pattern, have their own history.
    expect((await decide(t, { tool: 'wallet.view', user: 'u2' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'accounts.export', user: 'u1' })).decision).toBe('allow');
    // Two calls of u1 and one of u2: the two refusals added nothing.
    expect((await counted(t.tenant.id)).count).toBe(3);
  });

  it('with a decision counts only calls that ended in it: two refusals lock the user out', async () => {
    await publishPolicyDocument(t, {
      id: 'lockout',
      version: '1.0.0',
      rules: [
        { id: 'too-much', tools: ['wallet.transfer'], when: 'args.amount > 100', decision: 'deny' },
        {
          id: 'locked',
          tools: ['wallet.transfer'],
          when: "history.count('wallet.transfer', 'user', '1h', 'deny') >= 2",
          decision: 'deny',
        },
      ],
    });
    const transfer = (user: string, amount: number) => pre(t, { user, args: { account_id: 'acc-1', amount } });
    expect((await transfer('u1', 10)).body.decision).toBe('allow');
    expect((await transfer('u1', 500)).body.policy.rule).toBe('too-much');
    // One refusal so far: an allowed call does not add to the deny count.
    expect((await transfer('u1', 10)).body.decision).toBe('allow');
    expect((await transfer('u1', 500)).body.policy.rule).toBe('too-much');
    const locked = await transfer('u1', 10);
    expect(locked.body.decision).toBe('deny');
    expect(locked.body.policy.rule).toBe('locked');
    expect((await transfer('u2', 10)).body.decision).toBe('allow');
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});

describe('history.sum', () => {
  it('adds up an argument of the allowed calls per user', async () => {
    await publishPolicyDocument(
      t,
      denyWhen('daily-amount', ['wallet.transfer'], "history.sum('wallet.transfer', 'amount', 'user', '1d') >= 100.0"),
    );
    const transfer = (user: string, amount: number) => decide(t, { user, args: { account_id: 'acc-1', amount } });
    expect((await transfer('u1', 60)).decision).toBe('allow');
    expect((await transfer('u1', 45.5)).decision).toBe('allow');
    // 105.5 transferred: refused, whatever this call asks.
    expect((await transfer('u1', 1)).decision).toBe('deny');
    expect((await transfer('u2', 99)).decision).toBe('allow');
    // A call without the argument counts as a call adding nothing.
    expect((await decide(t, { user: 'u3', args: { account_id: 'acc-1' } })).decision).toBe('allow');
    expect(await counted(t.tenant.id)).toMatchObject({ count: 4, total: 204.5 });
  });
});

describe('history.seconds_since', () => {
  it('is the time since the last allowed call in the session, and large when there was none', async () => {
    await publishPolicyDocument(
      t,
      denyWhen('slow-down', ['wallet.view'], "history.seconds_since('wallet.view', 'session', '1h') < 2", 'One view per 2 s.'),
    );
    expect((await decide(t, { tool: 'wallet.view', session: 's1' })).decision).toBe('allow');
    const fast = await pre(t, { tool: 'wallet.view', session: 's1' });
    expect(fast.body.decision).toBe('deny');
    expect(fast.body.policy.reason).toBe('One view per 2 s.');
    expect((await decide(t, { tool: 'wallet.view', session: 's2' })).decision).toBe('allow');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await decide(t, { tool: 'wallet.view', session: 's1' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'wallet.view', session: 's1' })).decision).toBe('deny');
  });
});

describe('history.called and history.called_with', () => {
  it('called: a delete only after an export in the same session', async () => {
    await publishPolicyDocument(t, denyWhen('export-first', ['accounts.delete'], "!history.called('accounts.export', 'session', '1h')"));
    expect((await decide(t, { tool: 'accounts.delete', session: 's1' })).decision).toBe('deny');
    expect((await decide(t, { tool: 'accounts.export', session: 's1' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'accounts.delete', session: 's1' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'accounts.delete', session: 's2' })).decision).toBe('deny');
    // A call without a session shares the history of every other call without one, not s1's.
    expect((await decide(t, { tool: 'accounts.delete' })).decision).toBe('deny');
  });

  it('called_with: only after an export of the same account in the same session', async () => {
    await publishPolicyDocument(
      t,
      denyWhen('export-this-first', ['accounts.delete'], "!history.called_with('accounts.export', 'account_id', 'session', '1h')"),
    );
    const call = (tool: string, session: string, account: string) => decide(t, { tool, session, args: { account_id: account } });
    expect((await call('accounts.export', 's1', 'acc-1')).decision).toBe('allow');
    expect((await call('accounts.delete', 's1', 'acc-1')).decision).toBe('allow');
    expect((await call('accounts.delete', 's1', 'acc-2')).decision).toBe('deny');
    expect((await call('accounts.delete', 's2', 'acc-1')).decision).toBe('deny');
    expect((await call('accounts.export', 's2', 'acc-2')).decision).toBe('allow');
    expect((await call('accounts.delete', 's2', 'acc-2')).decision).toBe('allow');
    expect((await call('accounts.delete', 's2', 'acc-1')).decision).toBe('deny');
  });
});

describe('scopes', () => {
  // One call allowed per scope; each variant changes one thing about the first call.
  const variants = [
    { name: 'another API key', change: 'key' },
    { name: 'another user', change: 'user' },
    { name: 'another session', change: 'session' },
  ] as const;

  it.each(['key', 'user', 'session', 'tenant'] as const)('%s: counts together exactly the calls sharing it', async (scope) => {
    await publishPolicyDocument(t, denyWhen(`once-per-${scope}`, ['wallet.view'], `history.count('wallet.view', '${scope}', '1h') >= 1`));
    const base = { tool: 'wallet.view', user: 'u1', session: 's1', key: t.agentKey };
    expect((await decide(t, base)).decision).toBe('allow');
    expect((await decide(t, base)).decision).toBe('deny');
    for (const variant of variants) {
      const changed = {
        ...base,
        ...(variant.change === 'key' ? { key: t.secondKey } : {}),
        ...(variant.change === 'user' ? { user: 'u2' } : {}),
        ...(variant.change === 'session' ? { session: 's2' } : {}),
      };
      const expected = variant.change === scope ? 'allow' : 'deny';
      expect((await decide(t, changed)).decision, `${scope} scope, ${variant.name}`).toBe(expected);
    }
    expect((await counted(t.tenant.id)).count).toBe(scope === 'tenant' ? 1 : 2);
  });

  it('calls without a user id share one allowance, never an unlimited one', async () => {
    await publishPolicyDocument(t, denyWhen('once-per-user', ['wallet.view'], "history.count('wallet.view', 'user', '1h') >= 1"));
    expect((await decide(t, { tool: 'wallet.view' })).decision).toBe('allow');
    expect((await decide(t, { tool: 'wallet.view', session: 'other' })).decision).toBe('deny');
    expect((await decide(t, { tool: 'wallet.view', user: 'u1' })).decision).toBe('allow');
  });
});
