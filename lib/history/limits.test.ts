import { describe, expect, it } from 'vitest';
import { compilePolicy, type CompiledPolicy } from '../policies/compile-policy';
import { evaluatePolicies } from '../policies/evaluate-policies';
import { simulatedHistory, type SimulatedCall } from './simulated-history';
import type { CallContext } from '../validation/call-context';

function compiled(document: unknown): CompiledPolicy {
  const result = compilePolicy(document);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const refund = (amount: number, user = 'u1') => ({ tool: 'payments.refund', arguments: { amount }, context: { user_id: user } });

type TriedCall = { tool: string; arguments: Record<string, unknown>; context: CallContext };

function decide(policy: CompiledPolicy, calls: SimulatedCall[], call: TriedCall = refund(10)) {
  const history = simulatedHistory({ policies: [policy], calls, call, nowMs: NOW });
  return evaluatePolicies([policy], { ...call, sideEffectLevel: 'write' }, { history });
}

const limits = compiled({
  id: 'refunds',
  version: '1.0.0',
  limits: [
    { id: 'per-user', tools: ['payments.refund'], per: 'user', window: '1h', max_calls: 3 },
    {
      id: 'budget',
      tools: ['payments.*'],
      per: 'tenant',
      window: '1d',
      max_sum: { path: 'amount', value: 100 },
      when_exceeded: 'require_approval',
      roles: ['finance'],
    },
  ],
});

describe('limits', () => {
  it('allow until max_calls, then deny with AXAG_RATE_LIMITED, retry time and what remains', () => {
    const past = [1, 2].map((i) => ({ ...refund(1), seconds_ago: i * 60 }));
    expect(decide(limits, past).decision).toBe('allow');
    const full = [...past, { ...refund(1), seconds_ago: 30 * 60 }];
    const outcome = decide(limits, full);
    expect(outcome.decision).toBe('deny');
    const issue = outcome.issues[0];
    expect(issue?.code).toBe('AXAG_RATE_LIMITED');
    expect(issue?.details).toMatchObject({ limit_id: 'per-user', max: 3, used: 3, remaining: 0 });
    // The oldest call (30 minutes ago) leaves the one-hour window in 30 minutes (+ up to one 60 s bucket).
    const retry = issue?.details.retry_after_seconds as number;
    expect(retry).toBeGreaterThanOrEqual(30 * 60);
    expect(retry).toBeLessThanOrEqual(31 * 60);
  });

  it('counts per user and drops calls older than the window', () => {
    const others = [1, 2, 3].map((i) => ({ ...refund(1, 'u2'), seconds_ago: i }));
    expect(decide(limits, others).decision).toBe('allow');
    const old = [1, 2, 3].map((i) => ({ ...refund(1), seconds_ago: 3600 + 120 + i }));
    expect(decide(limits, old).decision).toBe('allow');
  });

  it('a soft budget past its maximum requires approval by its roles', () => {
    const spent = [{ ...refund(95, 'u9'), seconds_ago: 10 }];
    const outcome = decide(limits, spent, refund(10));
    expect(outcome.decision).toBe('require_approval');
    expect(outcome.decidedBy?.rule).toBe('budget');
    expect(outcome.approval?.roles).toEqual(['finance']);
    expect(decide(limits, spent, refund(5)).decision).toBe('allow');
  });

  it('refused calls do not count', () => {
    const denied = [1, 2, 3, 4].map((i) => ({ ...refund(1), seconds_ago: i, decision: 'deny' }));
    expect(decide(limits, denied).decision).toBe('allow');
  });
});

describe('history functions in conditions', () => {
  const policy = compiled({
    id: 'sequences',
    version: '1.0.0',
    rules: [
      {
        id: 'export-first',
        tools: ['accounts.delete'],
        when: "!history.called_with('accounts.export', ['account_id'], 'session', '1h')",
        decision: 'deny',
        reason: 'Export the account in this session first.',
      },
      { id: 'slow-down', tools: ['search'], when: "history.seconds_since('search', 'key', '1m') < 5", decision: 'deny' },
      { id: 'many-denials', tools: ['search'], when: "history.count('*', 'user', '10m', 'deny') >= 2", decision: 'escalate' },
      {
        id: 'big-spender',
        tools: ['payments.refund'],
        when: "history.sum('payments.refund', 'amount', 'user', '1d') + double(args.amount) > 50.0",
        decision: 'require_approval',
      },
    ],
  });
  const del = { tool: 'accounts.delete', arguments: { account_id: 'a1' }, context: { user_id: 'u1', session_id: 's1' } };

  it('called_with needs the same value in the same session', () => {
    expect(decide(policy, [], del).decision).toBe('deny');
    const exported = { tool: 'accounts.export', arguments: { account_id: 'a1' }, context: { session_id: 's1' }, seconds_ago: 60 };
    expect(decide(policy, [exported], del).decision).toBe('allow');
    expect(decide(policy, [{ ...exported, arguments: { account_id: 'a2' } }], del).decision).toBe('deny');
    expect(decide(policy, [{ ...exported, context: { session_id: 's2' } }], del).decision).toBe('deny');
  });

  it('seconds_since, count by decision and sum', () => {
    const search = { tool: 'search', arguments: {}, context: { user_id: 'u1' } };
    expect(decide(policy, [{ ...search, seconds_ago: 2 }], search).decision).toBe('deny');
    expect(decide(policy, [{ ...search, seconds_ago: 20 }], search).decision).toBe('allow');
    const denials = [1, 2].map((i) => ({ tool: 'x', context: { user_id: 'u1' }, decision: 'deny', seconds_ago: i * 60 }));
    expect(decide(policy, denials, search).decision).toBe('escalate');
    expect(decide(policy, [{ ...refund(45), seconds_ago: 100 }], refund(4)).decision).toBe('allow');
    expect(decide(policy, [{ ...refund(45), seconds_ago: 100 }], refund(6)).decision).toBe('require_approval');
  });

  it('refuses history calls whose arguments are not literals, bad windows and unknown functions', () => {
    const bad = (when: string) => compilePolicy({ id: 'p', version: '1.0.0', rules: [{ id: 'r', tools: ['*'], when, decision: 'deny' }] });
    expect(bad("history.count(args.tool, 'user', '1h') > 1")).toMatchObject({ ok: false });
    expect(JSON.stringify(bad("history.count('x', 'user', '90d') > 1"))).toContain('31 days');
    expect(JSON.stringify(bad("history.count('x', 'team', '1h') > 1"))).toContain('scope');
    expect(bad("history.average('x', 'user', '1h') > 1")).toMatchObject({ ok: false });
  });
});
