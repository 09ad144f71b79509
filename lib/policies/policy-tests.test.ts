import { describe, expect, it } from 'vitest';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import { PolicyTestSchema, type PolicyTest } from './policy-test-schema';
import { runPolicyTests } from './policy-tests';

function compiled(document: Record<string, unknown>): CompiledPolicy {
  const result = compilePolicy({ id: 'p', version: '1.0.0', ...document });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

/** Parses a case as the policy format does (defaults filled in), then runs it. */
function run(policy: CompiledPolicy, test: Record<string, unknown>) {
  const parsed = PolicyTestSchema.parse({ name: 'case', ...test });
  const [result] = runPolicyTests(policy, [parsed]);
  return result!;
}

const times = (n: number, past: Record<string, unknown>) => Array.from({ length: n }, () => past);

// At most 10 refunds per user per hour; no more than 1,000 in refunds per day without a person.
const refunds = compiled({
  limits: [
    { id: 'per-user', tools: ['payments.refund'], per: 'user', window: '1h', max_calls: 10 },
    {
      id: 'daily-budget',
      tools: ['payments.*'],
      per: 'tenant',
      window: '1d',
      max_sum: { path: 'amount', value: 1000 },
      when_exceeded: 'require_approval',
      roles: ['finance'],
    },
  ],
});
const refund = { tool: 'payments.refund', arguments: { amount: 10 }, context: { user_id: 'u1' } };

describe('runPolicyTests with a history', () => {
  it('denies the eleventh refund in an hour with AXAG_RATE_LIMITED, counting past calls as the same user by default', () => {
    const expectDeny = { decision: 'deny', rule: 'per-user', errors: ['AXAG_RATE_LIMITED'] };
    expect(run(refunds, { ...refund, history: times(10, { tool: 'payments.refund', seconds_ago: 60 }), expect: expectDeny })).toMatchObject(
      {
        passed: true,
        decision: 'deny',
        rule: 'per-user',
        errors: ['AXAG_RATE_LIMITED'],
      },
    );
    const nine = run(refunds, { ...refund, history: times(9, { tool: 'payments.refund', seconds_ago: 60 }), expect: expectDeny });
    expect(nine).toMatchObject({ passed: false, decision: 'allow', failure: expect.stringContaining('expected decision deny, got allow') });
  });

  it('counts only the same user, only inside the window, and only calls that were allowed to run', () => {
    const allow = { decision: 'allow' };
    const other = times(10, { tool: 'payments.refund', context: { user_id: 'u2' }, seconds_ago: 60 });
    expect(run(refunds, { ...refund, history: other, expect: allow }).passed).toBe(true);
    // The case runs at an instant where every bucket starts: an hour ago is in, a second more is out.
    expect(run(refunds, { ...refund, history: times(10, { tool: 'payments.refund', seconds_ago: 3600 }), expect: allow }).decision).toBe(
      'deny',
    );
    expect(run(refunds, { ...refund, history: times(10, { tool: 'payments.refund', seconds_ago: 3601 }), expect: allow }).passed).toBe(
      true,
    );
    for (const decision of ['deny', 'require_approval', 'escalate']) {
      const refused = times(10, { tool: 'payments.refund', decision, seconds_ago: 60 });
      expect(run(refunds, { ...refund, history: refused, expect: allow }).passed, decision).toBe(true);
    }
    const transformed = times(10, { tool: 'payments.refund', decision: 'transform', seconds_ago: 60 });
    expect(run(refunds, { ...refund, history: transformed, expect: allow }).decision).toBe('deny');
  });

  it('holds a refund past the daily budget for approval (a soft limit), reading each past call its own amount', () => {
    const spent = [
      { tool: 'payments.refund', arguments: { amount: 600 }, context: { user_id: 'u7' }, seconds_ago: 80_000 },
      { tool: 'payments.capture', arguments: { amount: 395 }, seconds_ago: 10 },
    ];
    expect(run(refunds, { ...refund, arguments: { amount: 5 }, history: spent, expect: { decision: 'allow' } }).passed).toBe(true);
    expect(
      run(refunds, { ...refund, arguments: { amount: 6 }, history: spent, expect: { decision: 'require_approval', rule: 'daily-budget' } }),
    ).toMatchObject({ passed: true, errors: [] });
    // Without arguments a past call repeats the tried call's: 100 x 10 is the whole budget.
    const repeated = times(100, { tool: 'payments.capture', seconds_ago: 5 });
    expect(
      run(refunds, { ...refund, context: { user_id: 'u9' }, history: repeated, expect: { decision: 'require_approval' } }).passed,
    ).toBe(true);
  });

  it('answers the CEL history functions: count by decision, seconds_since, sum as a double', () => {
    const policy = compiled({
      rules: [
        { id: 'cool-down', tools: ['search'], when: "history.seconds_since('search', 'session', '1m') < 5", decision: 'deny' },
        {
          id: 'repeat-offender',
          tools: ['*'],
          when: "history.count('*', 'user', '10m', 'deny') >= 2",
          decision: 'escalate',
          roles: ['lead'],
        },
        {
          id: 'big-spender',
          tools: ['payments.refund'],
          when: "history.sum('payments.refund', 'amount', 'user', '1d') + double(args.amount) > 1000.0",
          decision: 'require_approval',
          roles: ['finance'],
        },
      ],
    });
    const search = { tool: 'search', context: { user_id: 'u1', session_id: 's1' } };
    expect(
      run(policy, { ...search, history: [{ tool: 'search', seconds_ago: 4 }], expect: { decision: 'deny', rule: 'cool-down' } }).passed,
    ).toBe(true);
    // Another session's search is not this session's; nothing in the window is "never" (a huge number).
    const elsewhere = [{ tool: 'search', context: { session_id: 's2' }, seconds_ago: 1 }];
    expect(run(policy, { ...search, history: elsewhere, expect: { decision: 'allow' } }).passed).toBe(true);
    const denials = times(2, { tool: 'orders.delete', decision: 'deny', seconds_ago: 120 });
    expect(run(policy, { ...search, history: denials, expect: { decision: 'escalate', rule: 'repeat-offender' } }).passed).toBe(true);
    const spent = [{ tool: 'payments.refund', arguments: { amount: 999.5 }, seconds_ago: 3600 }];
    expect(run(policy, { ...refund, arguments: { amount: 0.5 }, history: spent, expect: { decision: 'allow' } }).passed).toBe(true);
    expect(run(policy, { ...refund, arguments: { amount: 1 }, history: spent, expect: { decision: 'require_approval' } }).passed).toBe(
      true,
    );
  });

  it('only deletes an account exported in the same session (history.called_with)', () => {
    const policy = compiled({
      rules: [
        {
          id: 'export-first',
          tools: ['accounts.delete'],
          when: "!history.called_with('accounts.export', ['account_id'], 'session', '1d')",
          decision: 'deny',
          reason: 'Export the account in this session first.',
        },
      ],
    });
    const del = { tool: 'accounts.delete', arguments: { account_id: 'a1' }, context: { user_id: 'u1', session_id: 's1' } };
    const exported = { tool: 'accounts.export', seconds_ago: 600 };
    expect(run(policy, { ...del, expect: { decision: 'deny', rule: 'export-first', errors: ['AXAG_POLICY_DENIED'] } }).passed).toBe(true);
    expect(run(policy, { ...del, history: [exported], expect: { decision: 'allow' } }).passed).toBe(true);
    const otherAccount = { ...exported, arguments: { account_id: 'a2' } };
    expect(run(policy, { ...del, history: [otherAccount], expect: { decision: 'deny' } }).passed).toBe(true);
    const otherSession = { ...exported, context: { session_id: 's2' } };
    expect(run(policy, { ...del, history: [otherSession], expect: { decision: 'deny' } }).passed).toBe(true);
    // A refused export never happened as far as history is concerned.
    expect(run(policy, { ...del, history: [{ ...exported, decision: 'deny' }], expect: { decision: 'deny' } }).passed).toBe(true);
  });

  it('counts per API key: the case names its key, past calls use it unless they name another', () => {
    const policy = compiled({ limits: [{ id: 'per-key', tools: ['*'], per: 'key', window: '5m', max_calls: 1 }] });
    const call = { tool: 'search', api_key_id: 'key_a' };
    expect(run(policy, { ...call, history: [{ tool: 'search', seconds_ago: 1 }], expect: { decision: 'deny' } }).errors).toEqual([
      'AXAG_RATE_LIMITED',
    ]);
    const otherKey = [{ tool: 'search', api_key_id: 'key_b', seconds_ago: 1 }];
    expect(run(policy, { ...call, history: otherKey, expect: { decision: 'allow' } }).passed).toBe(true);
  });

  it('decides the same on every run (a fixed instant) and needs no history for a policy that asks none', () => {
    const history = times(10, { tool: 'payments.refund', seconds_ago: 3599.5 });
    const first = run(refunds, { ...refund, history, expect: { decision: 'deny' } });
    expect(run(refunds, { ...refund, history, expect: { decision: 'deny' } })).toEqual(first);
    const plain = compiled({ rules: [{ id: 'all', tools: ['*'], decision: 'allow' }] });
    expect(run(plain, { ...refund, history, expect: { decision: 'allow', rule: 'all' } }).passed).toBe(true);
  });
});

describe('PolicyTestSchema history', () => {
  const base = { name: 'c', tool: 't', expect: { decision: 'allow' } };
  const parse = (test: Record<string, unknown>) => PolicyTestSchema.safeParse({ ...base, ...test });

  it('defaults a past call to allow and accepts session ids and key ids', () => {
    const parsed = parse({ context: { session_id: 's1' }, api_key_id: 'k', history: [{ tool: 't', seconds_ago: 0, api_key_id: null }] });
    expect(parsed.success).toBe(true);
    expect((parsed.data as PolicyTest).history?.[0]).toEqual({ tool: 't', seconds_ago: 0, api_key_id: null, decision: 'allow' });
  });

  it.each([
    ['more than 1,000 past calls', { history: times(1001, { tool: 't', seconds_ago: 1 }) }],
    ['a call older than 31 days', { history: [{ tool: 't', seconds_ago: 31 * 86_400 + 1 }] }],
    ['a call in the future', { history: [{ tool: 't', seconds_ago: -1 }] }],
    ['a call without seconds_ago', { history: [{ tool: 't' }] }],
    ['an unknown decision', { history: [{ tool: 't', seconds_ago: 1, decision: 'maybe' }] }],
    ['an unknown field', { history: [{ tool: 't', seconds_ago: 1, when: 'yesterday' }] }],
    ['an unknown context field', { history: [{ tool: 't', seconds_ago: 1, context: { team: 'x' } }] }],
  ])('refuses %s', (_name, test) => {
    expect(parse(test).success).toBe(false);
  });

  it('accepts exactly 1,000 past calls, up to 31 days old', () => {
    expect(parse({ history: times(1000, { tool: 't', seconds_ago: 31 * 86_400 }) }).success).toBe(true);
  });
});
