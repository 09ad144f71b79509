import { describe, expect, it } from 'vitest';
import { compileContract, type CompiledContract } from '../contracts/compile-contract';
import { lookupOrderContract, refundPaymentContract } from '../contracts/examples';
import { simulatedHistory } from '../history/simulated-history';
import { makeIssue } from '../validation/error-codes';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import { evaluatePolicies } from './evaluate-policies';
import { MAX_EXAMPLES, replayPolicyDraft, withDraft, type ReplayedCall } from './policy-replay';

const policy = (document: Record<string, unknown>): CompiledPolicy => {
  const compiled = compilePolicy(document);
  if (!compiled.ok) throw new Error(compiled.problems.join('; '));
  return compiled.policy;
};
const contract = (document: unknown): CompiledContract => {
  const compiled = compileContract(document);
  if (!compiled.ok) throw new Error('contract');
  return compiled.contract;
};
const lookup = contract(lookupOrderContract);
const refund = contract(refundPaymentContract);

const T0 = Date.UTC(2026, 10, 20, 12);
let n = 0;
function replayed(options: { user?: string; secondsAfter?: number; approved?: boolean; tool?: 'lookup' | 'refund' } = {}): ReplayedCall {
  n += 1;
  const compiled = options.tool === 'refund' ? refund : lookup;
  return {
    evidenceId: `ev-${n}`,
    callId: `call-${n}`,
    at: new Date(T0 + (options.secondsAfter ?? n) * 1000),
    call: {
      tool: compiled.document.id,
      sideEffectLevel: compiled.document.annotations.side_effect_level,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { user_id: options.user ?? 'u1' },
      apiKeyId: 'key-1',
    },
    contract: compiled,
    otherErrors: [],
    approved: options.approved ?? false,
  };
}

const ALLOW = policy({ id: 'base', version: '1.0.0', rules: [{ id: 'ok', tools: ['*'], decision: 'allow' }] });
const limited = (max: number, extra: Record<string, unknown> = {}) =>
  policy({
    id: 'base',
    version: '1.1.0',
    limits: [{ id: 'cap', tools: ['orders.*'], per: 'user', window: '1h', max_calls: max, ...extra }],
  });

describe('replayPolicyDraft', () => {
  it('puts the draft in place of the enforced version of its id, in id order, or adds it', () => {
    const other = policy({ id: 'another', version: '1.0.0' });
    expect(withDraft([other, ALLOW], limited(1)).map((p) => `${p.id}@${p.version}`)).toEqual(['another@1.0.0', 'base@1.1.0']);
    expect(withDraft([ALLOW], other).map((p) => `${p.id}@${p.version}`)).toEqual(['another@1.0.0', 'base@1.0.0']);
  });

  it('counts each side with its own decisions: a call the draft refuses does not use up its limit', async () => {
    const calls = [replayed(), replayed(), replayed(), replayed({ user: 'u2' })];
    const summary = await replayPolicyDraft({ enforced: [ALLOW], draft: limited(2), calls });
    expect(summary).toMatchObject({ replayed: 4, changed: 1, transitions: [{ from: 'allow', to: 'deny', calls: 1 }] });
    expect(summary.examples.map((e) => e.callId)).toEqual([calls[2]?.callId]);
    expect(summary.examples[0]?.after).toEqual({ decision: 'deny', policy: 'base', rule: 'cap', codes: ['AXAG_RATE_LIMITED'] });
    // The same limit enforced on both sides: the limited calls are limited either way, nothing changes.
    expect((await replayPolicyDraft({ enforced: [limited(2)], draft: limited(2), calls })).changed).toBe(0);
    // Loosened: the enforced limit denied the third call, the draft's lets it through.
    expect((await replayPolicyDraft({ enforced: [limited(2)], draft: limited(3), calls })).transitions).toEqual([
      { from: 'deny', to: 'allow', calls: 1 },
    ]);
  });

  it('lets calls leave the window as time goes on', async () => {
    const calls = [replayed({ secondsAfter: 0 }), replayed({ secondsAfter: 10 }), replayed({ secondsAfter: 7200 })];
    expect((await replayPolicyDraft({ enforced: [ALLOW], draft: limited(1), calls })).examples.map((e) => e.callId)).toEqual([
      calls[1]?.callId,
    ]);
  });

  it('gives each call the history simulatedHistory would give it from the calls before it', async () => {
    const draft = policy({
      id: 'base',
      version: '1.1.0',
      rules: [{ id: 'third', tools: ['orders.lookup'], when: "history.count(['orders.*'], 'user', '1h') >= 2", decision: 'deny' }],
    });
    const calls = [
      replayed({ secondsAfter: 0 }),
      replayed({ secondsAfter: 5, user: 'u2' }),
      replayed({ secondsAfter: 9 }),
      replayed({ secondsAfter: 30 }),
    ];
    const last = calls[3] as ReplayedCall;
    const history = simulatedHistory({
      policies: [draft],
      calls: calls.slice(0, 3).map((c) => ({
        tool: c.call.tool,
        arguments: c.call.arguments,
        context: c.call.context,
        seconds_ago: (last.at.getTime() - c.at.getTime()) / 1000,
      })),
      call: { ...last.call, apiKeyId: 'key-1' },
      nowMs: last.at.getTime(),
    });
    expect(evaluatePolicies([draft], last.call, { history }).decision).toBe('deny');
    const summary = await replayPolicyDraft({ enforced: [], draft, calls });
    expect(summary.examples.map((e) => e.callId)).toEqual([last.callId]);
    expect(summary.examples[0]?.before).toEqual({ decision: 'allow', policy: null, rule: null, codes: [] });
  });

  it('keeps what the recorded call was refused for outside the policies on both sides', async () => {
    const refused = {
      ...replayed(),
      otherErrors: [makeIssue('AXAG_PATTERN_MISMATCH', { intent: 'orders.lookup', message: 'x', path: '$.order_id' })],
    };
    const summary = await replayPolicyDraft({ enforced: [ALLOW], draft: limited(0), calls: [refused, replayed()] });
    // The refused call stays refused and, refused, is not counted: the next one is limited by max 0 alone.
    expect(summary.transitions).toEqual([
      { from: 'allow', to: 'deny', calls: 1 },
      { from: 'deny', to: 'deny', calls: 1 },
    ]);
    expect(summary.codes).toEqual([{ code: 'AXAG_RATE_LIMITED', added: 2, removed: 0 }]);
  });

  it('treats a recorded approval as redeemed on both sides: it meets a draft requirement and counts for the limit', async () => {
    const calls = [replayed({ tool: 'refund', approved: true }), replayed({ tool: 'refund' })];
    const draft = policy({
      id: 'base',
      version: '1.1.0',
      limits: [{ id: 'cap', tools: ['payments.*'], per: 'user', window: '1h', max_calls: 1 }],
    });
    const summary = await replayPolicyDraft({ enforced: [ALLOW], draft, calls });
    // The approved call was allowed and counted; the next one, held for approval before, is now over the limit.
    expect(summary.examples.map((e) => [e.callId, e.before.decision, e.after.decision])).toEqual([
      [calls[1]?.callId, 'require_approval', 'deny'],
    ]);
    expect(summary.examples[0]?.before.codes).toEqual(['AXAG_APPROVAL_MISSING']);
  });

  it('counts a transformed call with the arguments it runs with, as the evidence commit does', async () => {
    const quote = contract({
      ...lookupOrderContract,
      id: 'payments.quote',
      input: { type: 'object', properties: { amount: { type: 'number' } } },
      scope: undefined,
      postconditions: undefined,
    });
    const calls = [1, 2, 3].map(() => {
      const r = replayed();
      return { ...r, contract: quote, call: { ...r.call, tool: 'payments.quote', arguments: { amount: 100 } } };
    });
    const draft = policy({
      id: 'base',
      version: '1.1.0',
      limits: [{ id: 'budget', tools: ['payments.*'], per: 'tenant', window: '1h', max_sum: { path: 'amount', value: 250 } }],
      rules: [{ id: 'cap', tools: ['payments.*'], decision: 'transform', set: { amount: 10 } }],
    });
    // Each call asks for 100 but runs with 10: 0, 10 and 20 are spent before them, so none is over 250.
    expect((await replayPolicyDraft({ enforced: [ALLOW], draft, calls })).transitions).toEqual([
      { from: 'allow', to: 'transform', calls: 3 },
    ]);
  });

  it(`keeps the newest ${MAX_EXAMPLES} changed calls, newest first`, async () => {
    const calls = Array.from({ length: MAX_EXAMPLES + 10 }, (_, i) => replayed({ user: `user-${i}` }));
    const summary = await replayPolicyDraft({ enforced: [ALLOW], draft: limited(0), calls });
    expect(summary.changed).toBe(MAX_EXAMPLES + 10);
    expect(summary.examples).toHaveLength(MAX_EXAMPLES);
    expect(summary.examples[0]?.callId).toBe(calls.at(-1)?.callId);
    expect(summary.examples.at(-1)?.callId).toBe(calls[10]?.callId);
  });
});

describe('replayPolicyDraft: the cost of history', () => {
  it('charges reading and counting the tracked history series to the side budget, so thousands of series do not run unbounded', async () => {
    const scopes = ['user', 'tenant', 'key', 'session'];
    // 14,970 history series from rules for another tool: no condition of theirs runs on a lookup,
    // but every replayed call was read and counted into all of them.
    const rules = Array.from({ length: 499 }, (_, r) => ({
      id: `other-${r}`,
      tools: ['other.tool'],
      when: `${Array.from({ length: 30 }, (_, i) => `history.count('other.tool', '${scopes[(r + i) % 4]}', '${((r * 37 + i) % 720) + 1}h')`).join(' + ')} < 0`,
      decision: 'deny',
      reason: 'never',
    }));
    const hold = {
      id: 'hold',
      tools: ['orders.lookup'],
      when: "history.count('orders.lookup', 'tenant', '1d') >= 0",
      decision: 'require_approval',
      roles: ['admin'],
    };
    const draft = policy({ id: 'heavy', version: '1.0.0', rules: [...rules, hold] });
    const calls = Array.from({ length: 40 }, () => replayed());
    const summary = await replayPolicyDraft({ enforced: [], draft, calls });
    expect(summary.replayed).toBe(40);
    // The first calls are held for approval as live; once the budget is spent, the rest are
    // refused (the condition fails closed), not read against 14,970 series each.
    const toDeny = summary.transitions.find((t) => t.to === 'deny')?.calls ?? 0;
    const toHold = summary.transitions.find((t) => t.to === 'require_approval')?.calls ?? 0;
    expect(toHold).toBeGreaterThan(0);
    expect(toDeny).toBeGreaterThan(0);
    expect(toHold + toDeny).toBe(40);
  });
});

describe('replayPolicyDraft: the cost of a call', () => {
  it("decides each call on the gate's budget for one call: a rule costing more fails closed on every call, as it would live", async () => {
    const hundred = `[${Array.from({ length: 100 }, (_, i) => i).join(', ')}]`;
    // 500 x 500 iterations, about 2,250,000 steps: past one call's 1,000,000. On the side's budget
    // of 10,000,000 alone, the first four calls were held for approval and the rest refused.
    const draft = policy({
      id: 'costly',
      version: '1.0.0',
      rules: [
        {
          id: 'hold',
          tools: ['orders.lookup'],
          when: `cel.bind(l, ${hundred}, cel.bind(w, l + l + l + l + l, w.all(a, w.all(b, a + b >= 0))))`,
          decision: 'require_approval',
          roles: ['admin'],
        },
      ],
    });
    const calls = Array.from({ length: 8 }, () => replayed());
    const live = evaluatePolicies([draft], calls[0]!.call, { history: null });
    const summary = await replayPolicyDraft({ enforced: [], draft, calls });
    expect(summary.transitions).toEqual([{ from: 'allow', to: live.decision, calls: 8 }]);
    expect(live.decision).toBe('deny');
  });
});
