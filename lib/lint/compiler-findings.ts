import { compileCondition } from '../contracts/compile-conditions';
import { canonicalJson } from '../contracts/canonical-json-core';
import { MAX_CONTRACT_BYTES, MAX_CONTRACT_DEPTH } from '../contracts/compile-contract';
import type { ContractProblem } from '../contracts/contract-problems';
import { checkSchemaAgainstMeta } from '../contracts/json-schema-engine';
import { schemaDeclaresPath, schemaSizeProblems } from '../contracts/schema-guards';
import { isPlainObject } from '../json';
import { formatJsonPath, ownValue } from '../validation/json-path';
import type { PathSegment } from './parse-document';
import { contractConditionTexts } from './condition-texts';

/**
 * The contract compiler's stages run field by field, for documents the compiler itself is not
 * given (see rules/contract/context.ts): they find what the compiler would, under its codes and
 * paths, without stopping at the first stage that fails.
 */

export const SCHEMA_FIELDS = [
  { field: 'input', code: 'CONTRACT_INPUT_SCHEMA_INVALID' },
  { field: 'output', code: 'CONTRACT_OUTPUT_SCHEMA_INVALID' },
  { field: 'errors', code: 'CONTRACT_ERRORS_SCHEMA_INVALID' },
] as const;
function depthExceeds(root: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

export function fieldwiseCompilerFindings(document: Record<string, unknown>): ContractProblem[] {
  const problems: ContractProblem[] = [];
  if (depthExceeds(document, MAX_CONTRACT_DEPTH)) {
    return [{ code: 'CONTRACT_TOO_LARGE', message: `The document nests deeper than ${MAX_CONTRACT_DEPTH} levels.`, path: '$' }];
  }
  try {
    const bytes = new TextEncoder().encode(canonicalJson(document)).byteLength;
    if (bytes > MAX_CONTRACT_BYTES) {
      problems.push({
        code: 'CONTRACT_TOO_LARGE',
        message: `The document is ${bytes} bytes of canonical JSON; the limit is ${MAX_CONTRACT_BYTES}.`,
        path: '$',
      });
    }
  } catch (error) {
    problems.push({
      code: 'CONTRACT_SCHEMA_INVALID',
      message: `The document is not plain JSON: ${error instanceof Error ? error.message : String(error)}`,
      path: '$',
    });
  }
  for (const { field, code } of SCHEMA_FIELDS) {
    const schema = ownValue(document, field);
    if (!isPlainObject(schema)) continue;
    const meta = checkSchemaAgainstMeta(schema);
    if (!meta.ok) problems.push({ code, message: meta.message.slice(0, 500), path: formatJsonPath([field, ...meta.at]) });
    problems.push(...schemaSizeProblems(schema, field));
  }
  for (const { at, expression, field } of contractConditionTexts(document)) {
    const compiled = compileCondition({ id: 'lint', expression, message: 'lint' }, field === 'preconditions' ? 'pre' : 'post');
    if (!compiled.ok) problems.push({ code: 'CONTRACT_EXPRESSION_INVALID', message: compiled.message, path: formatJsonPath(at) });
  }
  const input = ownValue(document, 'input');
  const scope = ownValue(document, 'scope');
  const declared: { path: unknown; at: PathSegment[] }[] = [
    { path: ownValue(scope, 'tenant'), at: ['scope', 'tenant'] },
    { path: ownValue(scope, 'user'), at: ['scope', 'user'] },
  ];
  const sensitive = ownValue(document, 'sensitive');
  if (Array.isArray(sensitive)) sensitive.slice(0, 100).forEach((path, index) => declared.push({ path, at: ['sensitive', index] }));
  for (const { path, at } of declared) {
    if (typeof path === 'string' && path.length <= 256 && isPlainObject(input) && !schemaDeclaresPath(input, path)) {
      problems.push({
        code: 'CONTRACT_SCOPE_PATH_UNKNOWN',
        message: `"${path}" is not a property declared in the input schema.`,
        path: formatJsonPath(at),
      });
    }
  }
  return problems;
}
