import { runContractTests } from '../../../validation/contract-tests';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { ContractContext } from './context';

/** The contract's own test cases, run only against a contract that compiles. */
export const contractTestsRule = defineRule({
  codes: {
    CONTRACT_TEST_FAILED: {
      severity: 'error',
      summary: 'A test case in `tests` does not get the decision or error codes it expects from validate/pre.',
    },
  },
  check({ compiled, options }: ContractContext, report) {
    const out: Diagnostic[] = [];
    // Publishing runs them regardless of size; the linter only where it compiled (see context.ts).
    if (!compiled?.ok) return out;
    for (const result of runContractTests(compiled.contract, compiled.contract.document.tests ?? [], options.testMeter)) {
      if (!result.passed)
        out.push(
          report('CONTRACT_TEST_FAILED', `Test "${result.name}" fails: ${result.failure ?? ''}.`, ['tests', result.index, 'expect']),
        );
    }
    return out;
  },
});
