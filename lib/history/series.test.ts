import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../contracts/canonical-json';
import { compilePolicy, type CompiledPolicy } from '../policies/compile-policy';
import { evaluatePolicies } from '../policies/evaluate-policies';
import { amountOf, defineSeries, scopeKey, type CallIdentity } from './series';
import { simulatedHistory } from './simulated-history';

const calledWith = defineSeries({ tools: ['orders.*'], counts: 'counted', sumPath: null, valuePaths: ['ref', 'line'], bucketSeconds: 60 });
const budget = defineSeries({ tools: ['payments.refund'], counts: 'counted', sumPath: 'amount', valuePaths: null, bucketSeconds: 60 });
const identity: CallIdentity = { apiKeyId: 'key-1', context: { user_id: 'u1', session_id: 's1' } };

/** How keys were made before canonical JSON: what the counters already stored are keyed by. */
const legacyKey = (parts: unknown[]) => sha256Hex(JSON.stringify(parts)).slice(0, 32);

describe('scopeKey', () => {
  it('is the same for one object value whatever the order of its keys, at any depth', () => {
    const a = scopeKey(calledWith, 'session', identity, { ref: { order: 'o1', line: 2, at: { x: 1, y: [{ b: 1, a: 2 }] } } });
    const b = scopeKey(calledWith, 'session', identity, { ref: { at: { y: [{ a: 2, b: 1 }], x: 1 }, line: 2, order: 'o1' } });
    expect(a).toBe(b);
    // A near twin: another value is another key.
    expect(scopeKey(calledWith, 'session', identity, { ref: { order: 'o1', line: 3 } })).not.toBe(
      scopeKey(calledWith, 'session', identity, { ref: { order: 'o1', line: 2 } }),
    );
  });

  it('keeps the keys of scalar and array values byte for byte as before, so stored counters still match', () => {
    const long = 'x'.repeat(400);
    const cases: Record<string, unknown>[] = [
      {},
      { ref: 'o1' },
      { ref: 42, line: -0.5 },
      { ref: true, line: null },
      { ref: ['o1', 2, false, null] },
      { ref: 'é \u2028 "quoted" \\ \u0001 \ud800' },
      { ref: long },
    ];
    for (const args of cases) {
      const values = ['ref', 'line'].map((path) => (args as Record<string, unknown>)[path] ?? null);
      expect(scopeKey(calledWith, 'session', identity, args)).toBe(legacyKey(['session', 's1', values]));
    }
    expect(scopeKey(budget, 'user', identity, { amount: 5 })).toBe(legacyKey(['user', 'u1']));
    expect(scopeKey(budget, 'key', identity, {})).toBe(legacyKey(['key', 'key-1']));
    expect(scopeKey(budget, 'tenant', identity, {})).toBe(legacyKey(['tenant', '']));
  });
});

describe('amountOf', () => {
  it('adds a positive amount as it is', () => {
    expect(amountOf(budget, { amount: 12.5 })).toBe(12.5);
  });

  it('adds nothing for a negative amount, -0, or no number: a budget is never refunded by an argument', () => {
    expect(amountOf(budget, { amount: -1000 })).toBe(0);
    expect(Object.is(amountOf(budget, { amount: -0 }), 0)).toBe(true);
    expect(amountOf(budget, { amount: -Number.MIN_VALUE })).toBe(0);
    expect(amountOf(budget, { amount: '500' })).toBe(0);
    expect(amountOf(budget, {})).toBe(0);
  });
});

describe('a max_sum budget', () => {
  const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
  const result = compilePolicy({
    id: 'refunds',
    version: '1.0.0',
    limits: [{ id: 'budget', tools: ['payments.refund'], per: 'tenant', window: '1d', max_sum: { path: 'amount', value: 100 } }],
  });
  if (!result.ok) throw new Error(result.problems.join('; '));
  const policy: CompiledPolicy = result.policy;
  const refund = (amount: number) => ({ tool: 'payments.refund', arguments: { amount }, context: { user_id: 'u1' } });
  const decide = (past: { amount: number; seconds_ago: number }[], amount: number) => {
    const call = refund(amount);
    const calls = past.map((p) => ({ ...refund(p.amount), seconds_ago: p.seconds_ago }));
    const history = simulatedHistory({ policies: [policy], calls, call, nowMs: NOW });
    return evaluatePolicies([policy], { ...call, sideEffectLevel: 'write' }, { history });
  };

  it('is not topped back up by a negative amount', () => {
    const outcome = decide([{ amount: -1000, seconds_ago: 60 }], 500);
    expect(outcome.decision).toBe('deny');
    expect(outcome.issues[0]?.code).toBe('AXAG_BUDGET_EXCEEDED');
    expect(outcome.issues[0]?.details).toMatchObject({ used: 0, remaining: 100 });
    // The negative call itself spends nothing; what fits still passes after it.
    expect(
      decide(
        [
          { amount: 60, seconds_ago: 120 },
          { amount: -1000, seconds_ago: 60 },
        ],
        40,
      ).decision,
    ).toBe('allow');
    expect(
      decide(
        [
          { amount: 60, seconds_ago: 120 },
          { amount: -1000, seconds_ago: 60 },
        ],
        41,
      ).decision,
    ).toBe('deny');
    expect(decide([], -5).decision).toBe('allow');
  });
});
