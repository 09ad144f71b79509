import { describe, expect, it } from 'vitest';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import { applySet } from './apply-set';
import { evaluatePolicies, type PolicyCall } from './evaluate-policies';

function policy(document: Record<string, unknown>): CompiledPolicy {
  const result = compilePolicy({ id: 'p', version: '1.0.0', ...document });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

const call = (overrides: Partial<PolicyCall> = {}): PolicyCall => ({
  tool: 'payments.refund',
  sideEffectLevel: 'external',
  arguments: { amount_cents: 500, currency: 'EUR', reason: 'duplicate' },
  context: { user_id: 'u1', roles: ['support'] },
  ...overrides,
});

describe('evaluatePolicies', () => {
  it('allows by default, naming no rule, when nothing matches', () => {
    const outcome = evaluatePolicies([policy({ rules: [{ id: 'other', tools: ['orders.*'], decision: 'deny' }] })], call());
    expect(outcome).toMatchObject({ decision: 'allow', decidedBy: null, transformed: false, approval: null, issues: [] });
    expect(outcome.reason).toMatch(/allowed by default/);
  });

  it('refuses a tool outside the capability patterns and above the side-effect ceiling', () => {
    const notAllowed = evaluatePolicies([policy({ capability: { tools: ['orders.*'] } })], call());
    expect(notAllowed.decision).toBe('deny');
    expect(notAllowed.issues.map((i) => i.code)).toEqual(['AXAG_TOOL_NOT_ALLOWED']);
    expect(notAllowed.decidedBy).toEqual({ policy_id: 'p', version: '1.0.0', rule: 'capability' });

    const ceiling = evaluatePolicies([policy({ capability: { tools: ['payments.*'], side_effect_ceiling: 'write' } })], call());
    expect(ceiling.issues.map((i) => i.code)).toEqual(['AXAG_SIDE_EFFECT_CEILING']);
    expect(evaluatePolicies([policy({ capability: { side_effect_ceiling: 'external' } })], call()).decision).toBe('allow');
  });

  it('checks argument constraints by value and by RE2 pattern, ignoring absent arguments', () => {
    const p = policy({
      arg_constraints: [
        { tool: 'payments.*', key: 'currency', allowed_values: ['EUR', 'USD'] },
        { tool: 'payments.refund', key: 'reason', pattern: '^(duplicate|fraud)$' },
        { tool: 'payments.refund', key: 'memo', pattern: '^x' },
      ],
    });
    expect(evaluatePolicies([p], call()).decision).toBe('allow');
    const bad = evaluatePolicies([p], call({ arguments: { currency: 'GBP', reason: 'other', amount_cents: 1 } }));
    expect(bad.decision).toBe('deny');
    expect(bad.issues.map((i) => [i.code, i.path])).toEqual([
      ['AXAG_ARGUMENT_NOT_ALLOWED', '$.currency'],
      ['AXAG_ARGUMENT_NOT_ALLOWED', '$.reason'],
    ]);
    // A number where a pattern expects a string is refused, not coerced.
    expect(evaluatePolicies([p], call({ arguments: { reason: 7 } })).decision).toBe('deny');
  });

  it('lets the first matching rule decide, but a matching deny anywhere wins', () => {
    const p = policy({
      rules: [
        { id: 'allow-small', tools: ['payments.*'], when: 'args.amount_cents < 1000', decision: 'allow', reason: 'small refunds are fine' },
        {
          id: 'no-weekend-fraud',
          tools: ['payments.refund'],
          when: "args.reason == 'fraud'",
          decision: 'deny',
          reason: 'fraud refunds go through the fraud desk',
        },
      ],
    });
    const small = evaluatePolicies([p], call());
    expect(small).toMatchObject({ decision: 'allow', decidedBy: { rule: 'allow-small' }, reason: 'small refunds are fine' });
    const fraud = evaluatePolicies([p], call({ arguments: { amount_cents: 5, reason: 'fraud' } }));
    expect(fraud).toMatchObject({ decision: 'deny', decidedBy: { rule: 'no-weekend-fraud' } });
    expect(fraud.issues[0]).toMatchObject({
      code: 'AXAG_POLICY_DENIED',
      details: { policy_id: 'p', rule: 'no-weekend-fraud', reason: 'fraud refunds go through the fraud desk' },
    });
  });

  it('lets a deny in one policy win over an allow in another', () => {
    const allow = policy({ id: 'a-allow', rules: [{ id: 'ok', tools: ['*'], decision: 'allow' }] });
    const deny = policy({ id: 'b-deny', rules: [{ id: 'never', tools: ['payments.refund'], decision: 'deny', reason: 'frozen' }] });
    const outcome = evaluatePolicies([allow, deny], call());
    expect(outcome.decision).toBe('deny');
    expect(outcome.decidedBy).toEqual({ policy_id: 'b-deny', version: '1.0.0', rule: 'never' });
    expect(outcome.verdicts.map((v) => [v.policy_id, v.decision])).toEqual([
      ['a-allow', 'allow'],
      ['b-deny', 'deny'],
    ]);
  });

  it('fails closed when a condition cannot be evaluated', () => {
    const p = policy({ rules: [{ id: 'needs-region', tools: ['*'], when: "context.state.region == 'eu'", decision: 'allow' }] });
    const outcome = evaluatePolicies([p], call());
    expect(outcome.decision).toBe('deny');
    expect(outcome.issues.map((i) => i.code)).toEqual(['AXAG_POLICY_EVALUATION_FAILED']);
  });

  it('transforms: sets argument paths on a copy and answers transform', () => {
    const p = policy({
      rules: [
        {
          id: 'cap',
          tools: ['payments.refund'],
          when: 'args.amount_cents > 100',
          decision: 'transform',
          set: { amount_cents: 100, 'meta.capped': true },
          reason: 'capped',
        },
      ],
    });
    const original = call();
    const outcome = evaluatePolicies([p], original);
    expect(outcome.decision).toBe('transform');
    expect(outcome.transformed).toBe(true);
    expect(outcome.arguments).toEqual({ amount_cents: 100, currency: 'EUR', reason: 'duplicate', meta: { capped: true } });
    expect(original.arguments.amount_cents).toBe(500);
  });

  it('requires approval from rules and from the approval section, merging roles, counts and expiry', () => {
    const p = policy({
      rules: [
        {
          id: 'big',
          tools: ['payments.*'],
          when: 'args.amount_cents > 100',
          decision: 'require_approval',
          roles: ['approver'],
          reason: 'big refund',
        },
      ],
      approval: { rules: [{ tools: ['payments.refund'], roles: ['admin'], approvers_required: 2, expires_in_seconds: 600 }] },
    });
    const outcome = evaluatePolicies([p], call());
    expect(outcome.decision).toBe('require_approval');
    expect(outcome.approval).toEqual({ roles: ['approver', 'admin'], approversRequired: 2, expiresInSeconds: 600, escalated: false });
    expect(outcome.decidedBy?.rule).toBe('big');

    const sectionOnly = evaluatePolicies([policy({ approval: { rules: [{ tools: ['payments.*'], roles: ['approver'] }] } })], call());
    expect(sectionOnly).toMatchObject({
      decision: 'require_approval',
      decidedBy: { rule: 'approval' },
      approval: { approversRequired: 1 },
    });
  });

  it('escalates to the named role (admin when none is named), and escalation outranks approval', () => {
    const escalate = policy({
      id: 'esc',
      rules: [{ id: 'huge', tools: ['*'], decision: 'escalate', roles: ['admin'], reason: 'too big for approvers' }],
    });
    const approve = policy({ id: 'app', approval: { rules: [{ tools: ['*'], roles: ['approver'] }] } });
    const outcome = evaluatePolicies([approve, escalate], call());
    expect(outcome.decision).toBe('escalate');
    expect(outcome.approval).toMatchObject({ roles: ['admin'], escalated: true });
    expect(outcome.decidedBy).toMatchObject({ policy_id: 'esc', rule: 'huge' });
    const unnamed = evaluatePolicies([policy({ rules: [{ id: 'e', tools: ['*'], decision: 'escalate' }] })], call());
    expect(unnamed.approval?.roles).toEqual(['admin']);
  });

  it('applies no transform and asks no approval when the call is denied', () => {
    const t = policy({
      id: 'a',
      rules: [{ id: 't', tools: ['*'], decision: 'transform', set: { amount_cents: 1 } }],
      approval: { rules: [{ tools: ['*'], roles: ['approver'] }] },
    });
    const d = policy({ id: 'b', rules: [{ id: 'd', tools: ['*'], decision: 'deny' }] });
    const original = call();
    const outcome = evaluatePolicies([t, d], original);
    expect(outcome).toMatchObject({ decision: 'deny', transformed: false, approval: null });
    expect(outcome.arguments).toBe(original.arguments);
  });
});

describe('applySet', () => {
  it('never writes through a prototype, even when the arguments carry a __proto__ key', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const out = applySet(args, { 'b.c': 2 });
    expect(out).toEqual(JSON.parse('{"__proto__": {"polluted": true}, "a": 1, "b": {"c": 2}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses reserved path segments at the schema', () => {
    expect(
      compilePolicy({
        id: 'p',
        version: '1.0.0',
        rules: [{ id: 'x', tools: ['*'], decision: 'transform', set: { '__proto__.polluted': true } }],
      }).ok,
    ).toBe(false);
  });
});
