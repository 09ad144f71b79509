import { costExceededMessage, createCostMeter, TEST_RUN_COST_LIMIT } from '../contracts/condition-cost';
import type { CompiledContract } from '../contracts/compile-contract';
import { checkPreCall } from './check-pre-call';
import type { Decision } from '../decisions';
import { decideFromIssues } from './decide';
import { makeIssue } from './error-codes';
import type { ContractTest } from '@toolgate/sdk/core';

export type { ContractTest };

/**
 * Test cases that live inside a contract (as OPA's and Cerbos's policy tests live beside the
 * policy): an example call with the decision and error codes validate/pre must answer. The
 * studio runs them as the author types, publishing refuses a contract whose cases fail, and
 * `toolgate test` runs them in CI. They exercise the same pure checks validate/pre uses;
 * tokens are simulated by `confirmed` / `approved` because a test cannot hold a real one.
 */

export interface ContractTestResult {
  index: number;
  name: string;
  passed: boolean;
  decision: Decision;
  errors: string[];
  /** Why it failed, in one sentence; absent when it passed. */
  failure?: string;
}

export function runContractTests(
  contract: CompiledContract,
  tests: readonly ContractTest[],
  // One budget for the whole run: lint runs the cases as an author types, also for viewers.
  meter = createCostMeter(TEST_RUN_COST_LIMIT),
): ContractTestResult[] {
  return tests.map((test, index) => {
    const { errors } = checkPreCall({ contract, arguments: test.arguments, context: test.context ?? {}, meter });
    const annotations = contract.document.annotations;
    const intent = contract.document.id;
    if (annotations.confirmation_required && !test.confirmed)
      errors.push(makeIssue('AXAG_CONFIRMATION_MISSING', { intent, message: 'confirmation missing' }));
    if (annotations.approval_required && !test.approved)
      errors.push(makeIssue('AXAG_APPROVAL_MISSING', { intent, message: 'approval missing' }));
    const decision = decideFromIssues(errors);
    const codes = [...new Set(errors.map((e) => e.code))].sort();
    const failures: string[] = [];
    if (decision !== test.expect.decision) failures.push(`expected decision ${test.expect.decision}, got ${decision}`);
    if (test.expect.errors) {
      const expected = [...new Set(test.expect.errors)].sort();
      if (expected.join(',') !== codes.join(',')) failures.push(`expected errors [${expected.join(', ')}], got [${codes.join(', ')}]`);
    }
    // Said once it is spent: "got deny" alone hides that the conditions were not evaluated.
    if (failures.length > 0 && meter.exceeded) failures.push(costExceededMessage(meter));
    return {
      index,
      name: test.name,
      passed: failures.length === 0,
      decision,
      errors: codes,
      ...(failures.length ? { failure: failures.join('; ') } : {}),
    };
  });
}
