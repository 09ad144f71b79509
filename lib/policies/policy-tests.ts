import { canonicalJson } from '../contracts/canonical-json-core';
import type { CompiledPolicy } from './compile-policy';
import { evaluatePolicies } from './evaluate-policies';
import type { Decision } from '../decisions';
import type { PolicyTest } from './policy-test-schema';

export interface PolicyTestResult {
  index: number;
  name: string;
  passed: boolean;
  decision: Decision;
  rule: string | null;
  errors: string[];
  /** Why it failed, in one sentence; absent when it passed. */
  failure?: string;
}

/**
 * Runs a policy's own test cases through the evaluator validate/pre uses, with this policy
 * alone: the studio runs them as the author types, publishing refuses a policy whose cases
 * fail, and `toolgate test` runs them in CI.
 */
export function runPolicyTests(policy: CompiledPolicy, tests: readonly PolicyTest[]): PolicyTestResult[] {
  return tests.map((test, index) => {
    const outcome = evaluatePolicies([policy], {
      tool: test.tool,
      sideEffectLevel: test.side_effect_level,
      arguments: test.arguments,
      context: test.context,
    });
    const codes = [...new Set(outcome.issues.map((issue) => issue.code))].sort();
    const rule = outcome.decidedBy?.rule ?? null;
    const failures: string[] = [];
    if (outcome.decision !== test.expect.decision) failures.push(`expected decision ${test.expect.decision}, got ${outcome.decision}`);
    if (test.expect.rule !== undefined && test.expect.rule !== rule)
      failures.push(`expected rule ${test.expect.rule} to decide, got ${rule ?? 'none'}`);
    if (test.expect.errors) {
      const expected = [...new Set(test.expect.errors)].sort();
      if (expected.join(',') !== codes.join(',')) failures.push(`expected errors [${expected.join(', ')}], got [${codes.join(', ')}]`);
    }
    if (test.expect.arguments && canonicalJson(test.expect.arguments) !== canonicalJson(outcome.arguments)) {
      failures.push(
        `expected arguments ${canonicalJson(test.expect.arguments).slice(0, 200)}, got ${canonicalJson(outcome.arguments).slice(0, 200)}`,
      );
    }
    return {
      index,
      name: test.name,
      passed: failures.length === 0,
      decision: outcome.decision,
      rule,
      errors: codes,
      ...(failures.length ? { failure: failures.join('; ') } : {}),
    };
  });
}
