import { compileContract } from '../../../contracts/compile-contract';
import { ToolContractSchema } from '../../../contracts/contract-schema';
import { isPlainObject, type JsonObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import { SCHEMA_FIELDS } from '../../compiler-findings';
import type { ParsedDocument } from '../../parse-document';
import type { LintOptions } from '../../types';

/** What every contract rule reads: the document, its conformance, and the compiler's result. */
export interface ContractContext {
  parsed: ParsedDocument;
  options: LintOptions;
  document: JsonObject;
  conformance: ReturnType<typeof ToolContractSchema.safeParse>;
  /** Undefined when the compiler was not run on this document (see `contractContext`). */
  compiled: ReturnType<typeof compileContract> | undefined;
}

/** JSON values in the schemas past which the linter does not generate Ajv validators. */
const COMPILE_BUDGET_NODES = 1500;

/**
 * A conforming document with schemas of ordinary size goes through the compiler itself, so the
 * linter reports exactly what publishing would refuse. Otherwise the compiler's stages run field
 * by field (compiler-findings.ts): a document that does not conform yet would stop the compiler
 * at its first stage and hide the rest, and Ajv's code generation for very large schemas
 * (hundreds of milliseconds) does not fit the studio's per-keystroke budget. Those stages catch
 * all but Ajv-internal failures (an unresolvable `$ref`), which publishing still refuses.
 */
export function contractContext(
  parsed: ParsedDocument,
  document: JsonObject,
  conformance: ContractContext['conformance'],
  options: LintOptions,
): ContractContext {
  const small =
    SCHEMA_FIELDS.reduce((n, { field }) => n + countNodes(ownValue(document, field), COMPILE_BUDGET_NODES), 0) <= COMPILE_BUDGET_NODES;
  const compiled = conformance.success && (small || options.thorough) ? compileContract(document) : undefined;
  return { parsed, options, document, conformance, compiled };
}

/** Counts values (objects, arrays, scalars) up to `limit`, iteratively. */
function countNodes(root: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    if (value === undefined) continue;
    count++;
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (isPlainObject(value)) stack.push(...Object.values(value));
  }
  return count;
}
