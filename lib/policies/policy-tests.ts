import { costExceededMessage, createCostMeter, HISTORY_COUNT_STEPS, spendSteps, TEST_RUN_COST_LIMIT } from '../contracts/condition-cost';
import { canonicalJson } from '../contracts/canonical-json-core';
import type { CompiledPolicy } from './compile-policy';
import { evaluatePolicies } from './evaluate-policies';
import type { Decision } from '../decisions';
import { simulatedHistory } from '../history/simulated-history';
import type { PolicyTest } from './policy-test-schema';

/**
 * The instant every test case runs at: midnight UTC, where every bucket size starts a bucket,
 * so a case decides the same on every run, and a past call is in a window exactly when its
 * `seconds_ago` is at most the window (for windows of whole buckets; a live call can see up to
 * one bucket more).
 */
export const POLICY_TEST_NOW_MS = Date.UTC(2026, 0, 1);

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
 * alone and the history each case declares, counted as the evidence commit would have counted
 * it: the studio runs them as the author types, publishing refuses a policy whose cases fail,
 * and `toolgate test` runs them in CI.
 */
export function runPolicyTests(
  policy: CompiledPolicy,
  tests: readonly PolicyTest[],
  // One budget for the whole run: lint runs the cases as an author types, also for viewers.
  meter = createCostMeter(TEST_RUN_COST_LIMIT),
): PolicyTestResult[] {
  return tests.map((test, index) => {
    const call = { tool: test.tool, arguments: test.arguments, context: test.context, apiKeyId: test.api_key_id ?? null };
    // A past call declared without arguments or context repeats the tried call's, as in the
    // playground: "the same refund, ten times in the last hour" counts for the same user.
    const calls = (test.history ?? []).map((past) => ({
      ...past,
      arguments: past.arguments ?? test.arguments,
      context: past.context ?? test.context,
    }));
    // Counting the declared past calls is work of its own, on the same budget as the conditions.
    if (policy.historyQueries.length > 0 && !spendSteps(meter, calls.length * policy.historyQueries.length * HISTORY_COUNT_STEPS)) {
      return {
        index,
        name: test.name,
        passed: false,
        decision: 'deny' as const,
        rule: null,
        errors: [],
        failure: `its history was not counted: ${costExceededMessage(meter)}`,
      };
    }
    // Without history questions there is nothing to count, whatever the case declares.
    const history =
      policy.historyQueries.length > 0 ? simulatedHistory({ policies: [policy], calls, call, nowMs: POLICY_TEST_NOW_MS }) : null;
    const outcome = evaluatePolicies([policy], { ...call, sideEffectLevel: test.side_effect_level }, { history, meter });
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
    // Said once it is spent: "got deny" alone hides that the conditions were not evaluated.
    if (failures.length > 0 && meter.exceeded) failures.push(costExceededMessage(meter));
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
