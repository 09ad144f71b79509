import { describe, expect, it } from 'vitest';
import { compileContract } from '../contracts/compile-contract';
import { checkPreCall } from '../validation/check-pre-call';
import { compilePolicy, type CompiledPolicy } from './compile-policy';
import { evaluatePolicies } from './evaluate-policies';
import { runPolicyTests } from './policy-tests';

// One budget per decision, not per condition: a call's conditions share CONDITION_COST_LIMIT
// steps, so a document of many conditions, each under the budget, is bounded too.
const items = Array.from({ length: 100_000 }, (_, i) => i);
// About 600,000 steps over 100,000 items: under the budget alone, over it twice.
const WALK = 'args.items.all(i, i >= 0)';

function policy(document: Record<string, unknown>): CompiledPolicy {
  const result = compilePolicy({ id: 'p', version: '1.0.0', ...document });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.policy;
}

const rules = [
  { id: 'first', tools: ['t.walk'], when: `${WALK} && args.flag == 'one'`, decision: 'deny' },
  { id: 'second', tools: ['t.walk'], when: `${WALK} && args.flag == 'two'`, decision: 'allow' },
];
const call = (list: number[]) => ({
  tool: 't.walk',
  sideEffectLevel: 'read_only' as const,
  arguments: { items: list, flag: 'two' },
  context: {},
});

describe('the step budget of a decision', () => {
  it('is shared by every rule deciding one call', () => {
    const outcome = evaluatePolicies([policy({ rules })], call(items));
    expect(outcome.decision).toBe('deny');
    expect(outcome.issues.map((i) => i.code)).toEqual(['AXAG_POLICY_EVALUATION_FAILED']);
    expect(outcome.issues[0]?.message).toMatch(/Rule second .*evaluation budget of 1000000 steps/);
    // Each on its own fits: over a short list both rules are evaluated and the second decides.
    expect(evaluatePolicies([policy({ rules })], call([1, 2, 3]))).toMatchObject({ decision: 'allow', decidedBy: { rule: 'second' } });
  });

  it('is shared by all of a contract’s preconditions', () => {
    const compiled = compileContract({
      id: 't.walk',
      version: '1.0.0',
      description: 'walks',
      owner: 'test',
      input: { type: 'object', properties: { items: { type: 'array', items: { type: 'integer' } } } },
      output: { type: 'object' },
      annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
      preconditions: [
        { id: 'first', expression: WALK, message: 'first walk' },
        { id: 'second', expression: WALK, message: 'second walk' },
      ],
    });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled));
    const { errors } = checkPreCall({ contract: compiled.contract, arguments: { items }, context: {} });
    expect(errors.map((e) => [e.code, e.details?.condition_id])).toEqual([['AXAG_PRECONDITION_FAILED', 'second']]);
    expect(errors[0]?.details?.evaluation_error).toMatch(/evaluation budget/);
  });

  it('of a document’s test cases is one for the whole run', () => {
    const cases = Array.from({ length: 8 }, (_, i) => ({
      name: `case ${i}`,
      tool: 't.walk',
      arguments: { items, flag: 'one' },
      expect: { decision: 'allow' },
    }));
    const results = runPolicyTests(policy({ rules: [rules[1]] }), cases as never);
    // Each case walks the list once (about 600,000 steps); the run's 4,000,000 end within the seventh.
    expect(results.map((r) => r.passed)).toEqual([true, true, true, true, true, true, false, false]);
    expect(results[6]).toMatchObject({ decision: 'deny', errors: ['AXAG_POLICY_EVALUATION_FAILED'] });
  });

  it('charges argument constraints’ pattern matches, which read the whole string', () => {
    const constrained = policy({ arg_constraints: [{ tool: 't.walk', key: 'text', pattern: '^x*$' }] });
    // 500,000 characters: 100,001 steps a match (re2js counts double), so a test run's
    // 4,000,000 steps match the first 39 cases and the 40th is not evaluated.
    const text = 'x'.repeat(500_000);
    const decide = () => ({ ...call([]), arguments: { text } });
    expect(evaluatePolicies([constrained], decide()).decision).toBe('allow');
    const cases = Array.from({ length: 45 }, (_, i) => ({
      name: `case ${i}`,
      tool: 't.walk',
      arguments: { text },
      expect: { decision: 'allow' },
    }));
    const results = runPolicyTests(constrained, cases as never);
    expect(results.filter((r) => r.passed)).toHaveLength(39);
    expect(results[39]).toMatchObject({ decision: 'deny', errors: ['AXAG_POLICY_EVALUATION_FAILED'] });
    expect(results[39]?.failure).toMatch(/evaluation budget of 4000000 steps/);
  });
});
