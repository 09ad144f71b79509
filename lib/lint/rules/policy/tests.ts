import { compilePolicy } from '../../../policies/compile-policy';
import { runPolicyTests } from '../../../policies/policy-tests';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { PolicyContext } from './context';

/** The policy's own test cases, run against the compiled policy. */
export const policyTestsRule = defineRule({
  codes: {
    POLICY_TEST_FAILED: {
      severity: 'error',
      summary: "One of the policy's test cases gets a different decision, rule or error codes than it expects.",
    },
  },
  check({ conformance, options }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    if (!conformance.success || !conformance.data.tests?.length) return out;
    const compiled = compilePolicy(conformance.data);
    if (!compiled.ok) return out;
    for (const result of runPolicyTests(compiled.policy, conformance.data.tests, options.testMeter)) {
      if (!result.passed)
        out.push(report('POLICY_TEST_FAILED', `Test "${result.name}" fails: ${result.failure ?? ''}.`, ['tests', result.index, 'expect']));
    }
    return out;
  },
});
