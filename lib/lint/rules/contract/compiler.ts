import { CONTRACT_PROBLEM_CODES, type ContractProblemCode } from '../../../contracts/contract-problems';
import { ownValue } from '../../../validation/json-path';
import { fieldwiseCompilerFindings, SCHEMA_FIELDS } from '../../compiler-findings';
import { segmentsOfJsonPath } from '../../json-path-segments';
import { conformanceDiagnostics } from '../../conformance';
import { checkJsonSchema, jsonSchemaLintCodes } from '../../json-schema-checks';
import { defineRule } from '../registry';
import { memberRange } from '../report';
import type { ContractContext } from './context';

/**
 * Everything publishing itself refuses: conformance to the contract format, the semantics of the
 * JSON Schemas it carries, and the contract compiler's problems under the compiler's own codes.
 * One family because the compiler repeats some schema findings (an unsafe regex), which are
 * reported once, from the schema checks, whose ranges are sharper.
 */

const compilerCode = (code: ContractProblemCode) => ({ severity: 'error', summary: CONTRACT_PROBLEM_CODES[code] }) as const;

export const compilerRule = defineRule({
  codes: {
    CONTRACT_SCHEMA_INVALID: compilerCode('CONTRACT_SCHEMA_INVALID'),
    CONTRACT_TOO_LARGE: compilerCode('CONTRACT_TOO_LARGE'),
    CONTRACT_INPUT_SCHEMA_INVALID: compilerCode('CONTRACT_INPUT_SCHEMA_INVALID'),
    CONTRACT_OUTPUT_SCHEMA_INVALID: compilerCode('CONTRACT_OUTPUT_SCHEMA_INVALID'),
    CONTRACT_ERRORS_SCHEMA_INVALID: compilerCode('CONTRACT_ERRORS_SCHEMA_INVALID'),
    CONTRACT_EXPRESSION_INVALID: compilerCode('CONTRACT_EXPRESSION_INVALID'),
    CONTRACT_SCOPE_PATH_UNKNOWN: compilerCode('CONTRACT_SCOPE_PATH_UNKNOWN'),
    // CONTRACT_REGEX_UNSAFE, CONTRACT_REMOTE_REF and CONTRACT_DATA_REF are the compiler's codes too.
    ...jsonSchemaLintCodes('CONTRACT'),
  },
  check({ parsed, document, conformance, compiled }: ContractContext) {
    const diagnostics = contractFormatFindings(parsed, conformance);
    for (const { field } of SCHEMA_FIELDS) {
      const schema = ownValue(document, field);
      if (schema !== undefined) diagnostics.push(...checkJsonSchema(schema, [field], parsed.locate, 'CONTRACT'));
    }
    const compilerProblems = compiled ? (compiled.ok ? [] : compiled.problems) : fieldwiseCompilerFindings(document);
    const found = new Set(diagnostics.map((d) => `${d.code} ${d.path}`));
    const schemaCodes = new Set<string>(SCHEMA_FIELDS.map(({ code }) => code));
    for (const problem of compilerProblems) {
      if (found.has(`${problem.code} ${problem.path}`)) continue;
      const at = segmentsOfJsonPath(document, problem.path);
      diagnostics.push({
        code: problem.code,
        severity: 'error',
        message: problem.message,
        path: problem.path,
        // A schema the meta-schema refuses is underlined at the offending keyword (`maxLength: -1`),
        // not across the whole `input` or `output`.
        range: schemaCodes.has(problem.code) && at.length > 1 ? memberRange(parsed.locate, document, at) : parsed.locate(at),
        target: 'document',
      });
    }
    return diagnostics;
  },
});

/** Conformance alone: all there is to say about a document that is not an object. */
export function contractFormatFindings(parsed: ContractContext['parsed'], conformance: ContractContext['conformance']) {
  return conformance.success
    ? []
    : conformanceDiagnostics(conformance.error.issues, parsed.value, parsed.locate, 'CONTRACT_SCHEMA_INVALID');
}
