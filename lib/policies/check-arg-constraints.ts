import { CHARACTERS_PER_STEP, costExceededMessage, spendSteps, type CostMeter } from '../contracts/condition-cost';
import { makeIssue, type ValidationIssue } from '../validation/error-codes';
import { readDottedPath } from '../validation/json-path';
import type { CompiledPolicy } from './compile-policy';
import { toolPatternMatches } from './policy-schema';

export type ArgConstraintsOutcome = { ok: true; issues: ValidationIssue[] } | { ok: false; error: string };

/**
 * A policy's argument constraints on one call: the issues of the arguments outside them. Each
 * pattern match reads the whole string, and is charged to the meter the rules' conditions
 * share: 500 constraints on one argument, or 200 test cases whose arguments are one YAML alias
 * of a 900 KB string, made matching alone a minute's work. Past the budget the constraints are
 * not evaluated (`ok: false`), which the caller treats as a condition that cannot be.
 */
export function checkArgConstraints(
  policy: CompiledPolicy,
  call: { tool: string; arguments: Record<string, unknown> },
  meter: CostMeter,
): ArgConstraintsOutcome {
  const issues: ValidationIssue[] = [];
  const details = { policy_id: policy.id, policy_version: policy.version, rule: 'arg_constraints' };
  for (const constraint of policy.argConstraints) {
    if (!toolPatternMatches(constraint.tool, call.tool)) continue;
    const value = readDottedPath(call.arguments, constraint.key);
    // An absent argument is the contract's business (required or not); a constraint limits
    // the values that are given.
    if (value === undefined) continue;
    const path = `$.${constraint.key}`;
    if (constraint.allowed_values && !constraint.allowed_values.some((allowed) => allowed === value)) {
      issues.push(
        makeIssue('AXAG_ARGUMENT_NOT_ALLOWED', {
          intent: call.tool,
          path,
          message: `${constraint.key} must be one of ${constraint.allowed_values
            .slice(0, 10)
            .map((v) => JSON.stringify(v))
            .join(', ')} under policy ${policy.id}.`,
          ...details,
          constraint: { allowed_values: constraint.allowed_values.slice(0, 50) },
        }),
      );
    } else if (constraint.matcher) {
      // re2js reads about 12 ns a character: twice a condition's string operation, per step.
      if (typeof value === 'string' && !spendSteps(meter, 1 + Math.ceil((2 * value.length) / CHARACTERS_PER_STEP))) {
        return { ok: false, error: costExceededMessage(meter) };
      }
      if (typeof value === 'string' && constraint.matcher.test(value)) continue;
      issues.push(
        makeIssue('AXAG_ARGUMENT_NOT_ALLOWED', {
          intent: call.tool,
          path,
          message: `${constraint.key} must be a string matching ${constraint.pattern} under policy ${policy.id}.`,
          ...details,
          constraint: { pattern: constraint.pattern },
        }),
      );
    }
  }
  return { ok: true, issues };
}
