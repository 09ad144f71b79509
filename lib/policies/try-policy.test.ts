import { describe, expect, it } from 'vitest';
import { tryPolicy, TryPolicyRequestSchema } from './try-policy';
import type { SimulatedCall } from '../history/simulated-history';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

const POLICY = {
  id: 'lookups',
  version: '1.0.0',
  capability: { tools: ['orders.*'], side_effect_ceiling: 'write' },
  limits: [
    { id: 'two-per-user', tools: ['orders.lookup'], per: 'user', window: '1h', max_calls: 2 },
    {
      id: 'soft-export',
      tools: ['orders.export'],
      per: 'tenant',
      window: '1d',
      max_calls: 1,
      when_exceeded: 'require_approval',
      roles: ['lead'],
    },
  ],
  rules: [
    {
      id: 'cancel-after-lookup',
      tools: ['orders.cancel'],
      when: "!history.called_with(['orders.lookup'], ['order_id'], 'session', '10m')",
      decision: 'deny',
      reason: 'Look the order up first.',
    },
    { id: 'mark-source', tools: ['orders.note'], decision: 'transform', set: { source: 'agent' } },
  ],
};

const tried = (tool: string, history: SimulatedCall[] = [], extra: { level?: 'read_only' | 'destructive' } = {}) =>
  tryPolicy({
    document: POLICY,
    tool,
    arguments: { order_id: 'ord_1' },
    context: { user_id: 'u1', session_id: 's1' },
    history,
    sideEffect: { level: extra.level ?? 'read_only', source: 'request' },
    nowMs: NOW,
  });

function answer(result: ReturnType<typeof tryPolicy>) {
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.answer;
}

describe('tryPolicy', () => {
  it('allows under the limit and reports where the limit stands and how each step went', () => {
    const a = answer(tried('orders.lookup', [{ tool: 'orders.lookup', seconds_ago: 60 }]));
    expect(a.decision).toBe('allow');
    expect(a.errors).toEqual([]);
    expect(a.limits).toEqual([
      {
        policy_id: 'lookups',
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
    expect(a.trace.map((s) => [s.step, s.id, s.outcome])).toEqual([
      ['capability', 'capability', 'passed'],
      ['limit', 'two-per-user', 'passed'],
      ['limit', 'soft-export', 'not_applicable'],
      ['rule', 'cancel-after-lookup', 'not_applicable'],
      ['rule', 'mark-source', 'not_applicable'],
    ]);
    expect(a.side_effect).toEqual({ level: 'read_only', source: 'request', contract_version: null });
    expect(a.simulated_calls).toBe(1);
  });

  it('denies past a hard limit with AXAG_RATE_LIMITED, what remains and when to retry', () => {
    const a = answer(
      tried('orders.lookup', [
        { tool: 'orders.lookup', seconds_ago: 600 },
        { tool: 'orders.lookup', seconds_ago: 60 },
      ]),
    );
    expect(a.decision).toBe('deny');
    expect(a.decided_by).toEqual({ policy_id: 'lookups', version: '1.0.0', rule: 'two-per-user' });
    expect(a.errors.map((e) => e.code)).toEqual(['AXAG_RATE_LIMITED']);
    expect(a.errors[0]?.details).toMatchObject({ limit_id: 'two-per-user', max: 2, used: 2, remaining: 0 });
    const retry = a.errors[0]?.details.retry_after_seconds as number;
    expect(retry).toBeGreaterThanOrEqual(50 * 60);
    expect(retry).toBeLessThanOrEqual(51 * 60);
    expect(a.limits[0]).toMatchObject({ exceeded: true, remaining: 0, retry_after_seconds: retry });
  });

  it('counts only what the limit counts: another user, an older call or a refused one leave the allowance alone', () => {
    const a = answer(
      tried('orders.lookup', [
        { tool: 'orders.lookup', context: { user_id: 'u2' }, seconds_ago: 60 },
        { tool: 'orders.lookup', seconds_ago: 3 * 3600 },
        { tool: 'orders.lookup', decision: 'deny', seconds_ago: 10 },
        { tool: 'orders.lookup', seconds_ago: 30 },
      ]),
    );
    expect(a.decision).toBe('allow');
    expect(a.limits[0]).toMatchObject({ used: 1, remaining: 1 });
  });

  it('holds the call for approval past a soft limit', () => {
    const a = answer(tried('orders.export', [{ tool: 'orders.export', seconds_ago: 3600 }]));
    expect(a.decision).toBe('require_approval');
    expect(a.decided_by?.rule).toBe('soft-export');
    expect(a.approval).toEqual({ roles: ['lead'], approvers_required: 1, expires_in_seconds: null, escalated: false });
    expect(answer(tried('orders.export')).decision).toBe('allow');
  });

  it('evaluates CEL history rules over the simulated calls', () => {
    const denied = answer(tried('orders.cancel'));
    expect(denied.decision).toBe('deny');
    expect(denied.errors.map((e) => e.code)).toEqual(['AXAG_POLICY_DENIED']);
    expect(denied.trace.find((s) => s.id === 'cancel-after-lookup')?.outcome).toBe('matched');
    const looked = answer(tried('orders.cancel', [{ tool: 'orders.lookup', seconds_ago: 120 }]));
    expect(looked.decision).toBe('allow');
    expect(looked.trace.find((s) => s.id === 'cancel-after-lookup')?.outcome).toBe('not_matched');
    // Another order's lookup is not this order's.
    const other = answer(tried('orders.cancel', [{ tool: 'orders.lookup', arguments: { order_id: 'ord_2' }, seconds_ago: 120 }]));
    expect(other.decision).toBe('deny');
  });

  it('returns the transformed arguments and refuses a tool above the side-effect ceiling', () => {
    expect(answer(tried('orders.note')).transformed_arguments).toEqual({ order_id: 'ord_1', source: 'agent' });
    expect(answer(tried('orders.lookup')).transformed_arguments).toBeNull();
    const above = answer(tried('orders.lookup', [], { level: 'destructive' }));
    expect(above.errors.map((e) => e.code)).toEqual(['AXAG_SIDE_EFFECT_CEILING']);
  });

  it('returns the problems of a draft that does not compile', () => {
    const result = tryPolicy({
      document: { ...POLICY, rules: [{ id: 'bad', tools: ['orders.*'], when: 'args.x >', decision: 'deny' }] },
      tool: 'orders.lookup',
      arguments: {},
      context: {},
      history: [],
      sideEffect: { level: 'none', source: 'default' },
      nowMs: NOW,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]?.path).toBe('rules.bad.when');
    const shapeless = tryPolicy({
      document: { id: 'x' },
      tool: 't',
      arguments: {},
      context: {},
      history: [],
      sideEffect: { level: 'none', source: 'default' },
      nowMs: NOW,
    });
    expect(shapeless.ok).toBe(false);
  });

  it('bounds the request: at most 1,000 simulated calls, each at most 31 days ago', () => {
    const base = { policy: POLICY, tool: 'orders.lookup' };
    const calls = (n: number, secondsAgo = 1) => Array.from({ length: n }, () => ({ tool: 'orders.lookup', seconds_ago: secondsAgo }));
    expect(TryPolicyRequestSchema.safeParse({ ...base, history: calls(1000) }).success).toBe(true);
    expect(TryPolicyRequestSchema.safeParse({ ...base, history: calls(1001) }).success).toBe(false);
    expect(TryPolicyRequestSchema.safeParse({ ...base, history: calls(1, 31 * 86_400 + 1) }).success).toBe(false);
    expect(TryPolicyRequestSchema.safeParse({ ...base, history: calls(1, -1) }).success).toBe(false);
    expect(TryPolicyRequestSchema.safeParse({ ...base, context: { user: 'x' } }).success).toBe(false);
    expect(TryPolicyRequestSchema.safeParse({ ...base, arguments: [] }).success).toBe(false);
  });
});
