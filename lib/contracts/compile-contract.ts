import type { ValidateFunction } from 'ajv';
import { ajvIssues, type CheckedSubject } from '@/lib/validation/ajv-issues';
import { makeIssue, type ErrorCode, type ValidationIssue } from '@/lib/validation/error-codes';
import { formatJsonPath } from '@/lib/validation/json-path';
import { canonicalJson } from './canonical-json-core';
import { compileCondition, type CompiledCondition } from './compile-conditions';
import { budgetText, ConditionCostExceededError, createCostMeter, type CostMeter } from './condition-cost';
import type { ContractProblem, ContractProblemCode } from './contract-problems';
import { ToolContractSchema, type ToolContract } from './contract-schema';
import { checkSchemaAgainstMeta, compileContractSchema } from './json-schema-engine';
import { enterSchemaMeter, leaveSchemaMeter } from './schema-cost';
import { findSchemaProblems, schemaDeclaresPath } from './schema-guards';
import { sha256HexPortable } from './sha256';

/**
 * Turns an untrusted contract document into validators. All the expensive and risky work
 * (schema compilation, regex compilation, CEL parsing) happens here, once; the returned
 * checks only run precompiled code.
 *
 * Nothing reachable from here imports Node built-ins: the studio's linter runs this compiler in
 * the browser to report exactly what publishing would refuse.
 */

export const MAX_CONTRACT_BYTES = 256 * 1024;
export const MAX_CONTRACT_DEPTH = 48;

export type CompiledContract = {
  document: ToolContract;
  /** sha256 of the canonical JSON of the parsed document (defaults applied). */
  hash: string;
  /**
   * The issues with the arguments, in a new array on every call (a caller may keep and extend it).
   * `meter` is the step budget the check shares (schema-cost.ts); by default one of its own.
   */
  checkInput(args: unknown, meter?: CostMeter): ValidationIssue[];
  checkOutput(result: unknown, meter?: CostMeter): ValidationIssue[];
  checkErrorPayload(error: unknown, meter?: CostMeter): ValidationIssue[];
  preconditions: readonly CompiledCondition[];
  postconditions: readonly CompiledCondition[];
};

export type CompileContractResult = { ok: true; contract: CompiledContract } | { ok: false; problems: ContractProblem[] };

const SCHEMA_FIELDS = [
  { field: 'input', code: 'CONTRACT_INPUT_SCHEMA_INVALID', subject: 'arguments' },
  { field: 'output', code: 'CONTRACT_OUTPUT_SCHEMA_INVALID', subject: 'result' },
  { field: 'errors', code: 'CONTRACT_ERRORS_SCHEMA_INVALID', subject: 'error' },
] as const satisfies readonly { field: 'input' | 'output' | 'errors'; code: ContractProblemCode; subject: CheckedSubject }[];

/** Iterative, so a hostile document cannot overflow the stack before it is refused. */
function exceedsDepth(document: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: document, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).slice(0, 500);
}

type Checker = (value: unknown, meter?: CostMeter) => ValidationIssue[];

/** What a check that ran out of steps answers: the value is refused, as a failed condition is. */
const OUT_OF_STEPS_CODE = {
  arguments: 'AXAG_CONSTRAINT_VIOLATION',
  result: 'AXAG_OUTPUT_MISMATCH',
  error: 'AXAG_ERROR_SCHEMA_MISMATCH',
} as const satisfies Record<CheckedSubject, ErrorCode>;

function makeChecker(validate: ValidateFunction, schema: unknown, intent: string, subject: CheckedSubject): Checker {
  // The budget of a check given none, reset for each: checks run one at a time, and a fresh
  // meter per call cost a tenth of the validations per second.
  const own = createCostMeter();
  return (value, given) => {
    let meter = given;
    if (meter === undefined) {
      meter = own;
      own.spent = 0;
      if (own.exceeded) {
        own.exceeded = false;
        own.error = null;
      }
    }
    let valid: boolean;
    const previous = enterSchemaMeter(meter);
    try {
      valid = validate(value) as boolean;
    } catch (error) {
      if (!(error instanceof ConditionCostExceededError)) throw error;
      const message = `The ${subject} could not be checked: the contract's schema exceeded ${budgetText(meter)}.`;
      return [makeIssue(OUT_OF_STEPS_CODE[subject], { intent, message, path: '$' })];
    } finally {
      leaveSchemaMeter(meter, previous);
    }
    return valid ? [] : ajvIssues({ errors: validate.errors, data: value, schema, intent, subject });
  };
}

export function compileContract(document: unknown): CompileContractResult {
  if (exceedsDepth(document, MAX_CONTRACT_DEPTH)) {
    return {
      ok: false,
      problems: [{ code: 'CONTRACT_TOO_LARGE', message: `The document nests deeper than ${MAX_CONTRACT_DEPTH} levels.`, path: '$' }],
    };
  }
  const parsed = ToolContractSchema.safeParse(document);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        code: 'CONTRACT_SCHEMA_INVALID',
        message: issue.message,
        path: formatJsonPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))),
      })),
    };
  }
  let canonical: string;
  try {
    canonical = canonicalJson(parsed.data);
  } catch (error) {
    return {
      ok: false,
      problems: [{ code: 'CONTRACT_SCHEMA_INVALID', message: `The document is not plain JSON: ${firstLine(error)}`, path: '$' }],
    };
  }
  const bytes = new TextEncoder().encode(canonical).byteLength;
  if (bytes > MAX_CONTRACT_BYTES) {
    return {
      ok: false,
      problems: [
        {
          code: 'CONTRACT_TOO_LARGE',
          message: `The document is ${bytes} bytes of canonical JSON; the limit is ${MAX_CONTRACT_BYTES}.`,
          path: '$',
        },
      ],
    };
  }

  // Everything below works on a private copy re-read from the canonical text, so the stored
  // document always matches its hash and later mutation of the caller's object changes nothing.
  const contract = JSON.parse(canonical) as ToolContract;
  const problems: ContractProblem[] = [];
  const checkers: Partial<Record<CheckedSubject, Checker>> = {};
  for (const { field, code, subject } of SCHEMA_FIELDS) {
    const schema = contract[field];
    if (schema === undefined) continue;
    const guardProblems = findSchemaProblems(schema, field);
    if (guardProblems.length > 0) {
      problems.push(...guardProblems);
      continue;
    }
    const meta = checkSchemaAgainstMeta(schema);
    if (!meta.ok) {
      problems.push({ code, message: meta.message.slice(0, 500), path: formatJsonPath([field, ...meta.at]) });
      continue;
    }
    try {
      const validate = compileContractSchema(schema);
      checkers[subject] = makeChecker(validate, schema, contract.id, subject);
    } catch (error) {
      problems.push({ code, message: firstLine(error), path: formatJsonPath([field]) });
    }
  }

  const compileConditions = (field: 'preconditions' | 'postconditions'): CompiledCondition[] => {
    const compiled: CompiledCondition[] = [];
    (contract[field] ?? []).forEach((condition, index) => {
      const result = compileCondition(condition, field === 'preconditions' ? 'pre' : 'post');
      if (result.ok) compiled.push(result.condition);
      else
        problems.push({ code: 'CONTRACT_EXPRESSION_INVALID', message: result.message, path: formatJsonPath([field, index, 'expression']) });
    });
    return compiled;
  };
  const preconditions = compileConditions('preconditions');
  const postconditions = compileConditions('postconditions');

  const declaredPaths: { path: string; at: (string | number)[] }[] = [];
  if (contract.scope?.tenant !== undefined) declaredPaths.push({ path: contract.scope.tenant, at: ['scope', 'tenant'] });
  if (contract.scope?.user !== undefined) declaredPaths.push({ path: contract.scope.user, at: ['scope', 'user'] });
  (contract.sensitive ?? []).forEach((path, index) => declaredPaths.push({ path, at: ['sensitive', index] }));
  for (const { path, at } of declaredPaths) {
    if (!schemaDeclaresPath(contract.input, path)) {
      problems.push({
        code: 'CONTRACT_SCOPE_PATH_UNKNOWN',
        message: `"${path}" is not a property declared in the input schema.`,
        path: formatJsonPath(at),
      });
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  const none: Checker = () => [];
  let hash: string | undefined;
  return {
    ok: true,
    contract: {
      document: contract,
      // Computed on first read: the linter compiles on every keystroke and never needs it.
      get hash() {
        return (hash ??= sha256HexPortable(canonical));
      },
      checkInput: checkers.arguments ?? none,
      checkOutput: checkers.result ?? none,
      checkErrorPayload: checkers.error ?? none,
      preconditions,
      postconditions,
    },
  };
}
