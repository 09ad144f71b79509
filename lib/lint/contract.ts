import { ToolContractSchema } from '../contracts/contract-schema';
import { isPlainObject } from '../json';
import type { ParsedDocument } from './parse-document';
import { CONTRACT_RULES } from './rules/contract';
import { contractFormatFindings } from './rules/contract/compiler';
import { contractContext } from './rules/contract/context';
import { codesOf, runRules } from './rules/registry';
import type { Diagnostic, LintOptions } from './types';

/**
 * The contract linter: everything publishing would refuse (the contract compiler's own
 * problems, under the same codes), plus semantic checks an author wants to hear about while
 * typing. Plain TypeScript; runs in the browser. The rules are in rules/contract/.
 */

export const CONTRACT_LINT_CODES = codesOf(CONTRACT_RULES);
export type ContractLintCode = keyof typeof CONTRACT_LINT_CODES;

export function lintContract(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  const document = parsed.value;
  const conformance = ToolContractSchema.safeParse(document);
  // Every rule past conformance reads fields.
  if (!isPlainObject(document)) return contractFormatFindings(parsed, conformance);
  return runRules(CONTRACT_RULES, contractContext(parsed, document, conformance, options));
}
