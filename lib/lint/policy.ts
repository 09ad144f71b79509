import { isPlainObject } from '../json';
import { PolicySchema } from '../policies/policy-schema';
import type { ParsedDocument } from './parse-document';
import { POLICY_RULES } from './rules/policy';
import { policyFormatFindings } from './rules/policy/format';
import { codesOf, runRules } from './rules/registry';
import type { Diagnostic, LintOptions } from './types';

/**
 * The policy linter: conformance to the policy format, then what the format alone cannot say
 * (conditions that do not compile, rules that can never fire, approvals nobody can give). The
 * rules are in rules/policy/.
 */

export const POLICY_LINT_CODES = codesOf(POLICY_RULES);
export type PolicyLintCode = keyof typeof POLICY_LINT_CODES;

export function lintPolicy(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  const document = parsed.value;
  const conformance = PolicySchema.safeParse(document);
  // Every rule past conformance reads fields.
  if (!isPlainObject(document)) return policyFormatFindings(parsed, conformance);
  return runRules(POLICY_RULES, { parsed, options, document, conformance });
}
