import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import semver from 'semver';
import { compileCondition } from '../contracts/compile-conditions';
import { canonicalJson } from '../contracts/canonical-json-core';
import { runContractTests } from '../validation/contract-tests';
import { compileContract, MAX_CONTRACT_BYTES, MAX_CONTRACT_DEPTH } from '../contracts/compile-contract';
import { CONTRACT_PROBLEM_CODES, type ContractProblem, type ContractProblemCode } from '../contracts/contract-problems';
import { ToolContractSchema } from '../contracts/contract-schema';
import { checkSchemaAgainstMeta } from '../contracts/json-schema-engine';
import { schemaDeclaresPath } from '../contracts/schema-guards';
import { formatJsonPath, ownValue } from '../validation/json-path';
import type { LintOptions } from './index';
import type { ParsedDocument, PathSegment } from './parse-document';
import {
  argumentPathStatus, checkJsonSchema, conformanceDiagnostics, fieldName, hasOwn, isPlainObject, jsonSchemaLintCodes,
  quote, reporterFor, type CodeRegistry,
} from './schema-checks';
import type { Diagnostic, SourceRange } from './types';

/**
 * The contract linter: everything publishing would refuse (the contract compiler's own
 * problems, under the same codes), plus semantic checks an author wants to hear about while
 * typing. Plain TypeScript; runs in the browser.
 */

const compilerCode = (code: ContractProblemCode) => ({ severity: 'error', summary: CONTRACT_PROBLEM_CODES[code] }) as const;

export const CONTRACT_LINT_CODES = {
  CONTRACT_SCHEMA_INVALID: compilerCode('CONTRACT_SCHEMA_INVALID'),
  CONTRACT_TOO_LARGE: compilerCode('CONTRACT_TOO_LARGE'),
  CONTRACT_INPUT_SCHEMA_INVALID: compilerCode('CONTRACT_INPUT_SCHEMA_INVALID'),
  CONTRACT_OUTPUT_SCHEMA_INVALID: compilerCode('CONTRACT_OUTPUT_SCHEMA_INVALID'),
  CONTRACT_ERRORS_SCHEMA_INVALID: compilerCode('CONTRACT_ERRORS_SCHEMA_INVALID'),
  CONTRACT_EXPRESSION_INVALID: compilerCode('CONTRACT_EXPRESSION_INVALID'),
  CONTRACT_SCOPE_PATH_UNKNOWN: compilerCode('CONTRACT_SCOPE_PATH_UNKNOWN'),
  // CONTRACT_REGEX_UNSAFE, CONTRACT_REMOTE_REF and CONTRACT_DATA_REF are the compiler's codes too.
  ...jsonSchemaLintCodes('CONTRACT'),
  CONTRACT_CONDITION_UNKNOWN_ARGUMENT: {
    severity: 'error',
    summary: 'A pre/postcondition reads an `args.…` path the input schema does not declare; conditions fail closed, so it would refuse every call that omits it.',
  },
  CONTRACT_APPROVAL_NO_ROLES: {
    severity: 'error',
    summary: '`approval_required` is true but `approver_roles` is empty: nobody could ever approve a call.',
  },
  CONTRACT_IDEMPOTENCY_STRATEGY_MISSING: {
    severity: 'warning',
    summary: 'An `external` or `destructive` tool claims `idempotent: true` without an `idempotency_strategy`; duplicate-call warnings are then skipped on the author\'s word alone.',
  },
  CONTRACT_DEPRECATED_ARG_ALIAS: {
    severity: 'warning',
    summary: 'An argument alias is declared: it is deprecated, and callers should move to the canonical key.',
  },
  CONTRACT_ALIAS_TARGET_UNKNOWN: {
    severity: 'error',
    summary: 'An argument alias maps to a key that is not in `input.properties`.',
  },
  CONTRACT_ALIAS_SHADOWS_PROPERTY: {
    severity: 'error',
    summary: 'An argument alias is itself a property of the input schema, so a call could not tell which one it sent.',
  },
  CONTRACT_VERSION_NOT_INCREASED: {
    severity: 'error',
    summary: 'The version is not greater (by semver) than the latest published version.',
  },
  CONTRACT_TEST_FAILED: {
    severity: 'error',
    summary: 'A test case in `tests` does not get the decision or error codes it expects from validate/pre.',
  },
} as const satisfies CodeRegistry;

export type ContractLintCode = keyof typeof CONTRACT_LINT_CODES;

type Report = ReturnType<typeof reporterFor<typeof CONTRACT_LINT_CODES>>;

const SCHEMA_FIELDS = [
  { field: 'input', code: 'CONTRACT_INPUT_SCHEMA_INVALID' },
  { field: 'output', code: 'CONTRACT_OUTPUT_SCHEMA_INVALID' },
  { field: 'errors', code: 'CONTRACT_ERRORS_SCHEMA_INVALID' },
] as const;
const CONDITION_FIELDS = ['preconditions', 'postconditions'] as const;

export function lintContract(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  const document = parsed.value;
  const report = reporterFor(CONTRACT_LINT_CODES, parsed.locate);
  const conformance = ToolContractSchema.safeParse(document);
  const diagnostics = conformance.success
    ? []
    : conformanceDiagnostics(conformance.error.issues, document, parsed.locate, 'CONTRACT_SCHEMA_INVALID');
  if (!isPlainObject(document)) return diagnostics;

  const input = ownValue(document, 'input');
  for (const { field } of SCHEMA_FIELDS) {
    const schema = ownValue(document, field);
    if (schema !== undefined) diagnostics.push(...checkJsonSchema(schema, [field], parsed.locate, 'CONTRACT'));
  }

  // A conforming document with schemas of ordinary size goes through the compiler itself, so the
  // linter reports exactly what publishing would refuse. Otherwise the compiler's stages run
  // field by field: a document that does not conform yet would stop the compiler at its first
  // stage and hide the rest, and Ajv's code generation for very large schemas (hundreds of
  // milliseconds) does not fit the studio's per-keystroke budget. Those stages catch all but
  // Ajv-internal failures (an unresolvable `$ref`), which publishing still refuses.
  const small = SCHEMA_FIELDS.reduce((n, { field }) => n + countNodes(ownValue(document, field), COMPILE_BUDGET_NODES), 0) <= COMPILE_BUDGET_NODES;
  const compiled = conformance.success && (small || options.thorough) ? compileContract(document) : undefined;
  const compilerProblems = compiled ? (compiled.ok ? [] : compiled.problems) : fieldwiseCompilerFindings(document);
  // The schema checks find some of the same things (an unsafe regex) with a sharper range.
  const found = new Set(diagnostics.map((d) => `${d.code} ${d.path}`));
  for (const problem of compilerProblems) {
    if (found.has(`${problem.code} ${problem.path}`)) continue;
    diagnostics.push({
      code: problem.code,
      severity: 'error',
      message: problem.message,
      path: problem.path,
      range: parsed.locate(segmentsOfJsonPath(document, problem.path)),
      target: 'document',
    });
  }

  diagnostics.push(...checkConditionArguments(document, input, parsed, report));
  diagnostics.push(...checkAnnotations(ownValue(document, 'annotations'), report));
  diagnostics.push(...checkArgumentAliases(ownValue(document, 'argument_aliases'), input, report));
  const version = ownValue(document, 'version');
  const previous = options.previousVersion;
  if (typeof version === 'string' && previous !== undefined && semver.valid(version) && semver.valid(previous) && !semver.gt(version, previous)) {
    diagnostics.push(report('CONTRACT_VERSION_NOT_INCREASED', `Version ${version} is not greater than the published version ${previous}; published versions are immutable, so use a higher one.`, ['version']));
  }
  // Test cases run only against a contract that compiles (publishing runs them regardless of size).
  if (compiled?.ok) {
    for (const result of runContractTests(compiled.contract, compiled.contract.document.tests ?? [])) {
      if (!result.passed) diagnostics.push(report('CONTRACT_TEST_FAILED', `Test "${result.name}" fails: ${result.failure ?? ''}.`, ['tests', result.index, 'expect']));
    }
  }
  return diagnostics;
}

/** JSON values in the schemas past which the linter does not generate Ajv validators. */
const COMPILE_BUDGET_NODES = 1500;

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

function fieldwiseCompilerFindings(document: Record<string, unknown>): ContractProblem[] {
  const problems: ContractProblem[] = [];
  if (depthExceeds(document, MAX_CONTRACT_DEPTH)) {
    return [{ code: 'CONTRACT_TOO_LARGE', message: `The document nests deeper than ${MAX_CONTRACT_DEPTH} levels.`, path: '$' }];
  }
  try {
    const bytes = new TextEncoder().encode(canonicalJson(document)).byteLength;
    if (bytes > MAX_CONTRACT_BYTES) {
      problems.push({ code: 'CONTRACT_TOO_LARGE', message: `The document is ${bytes} bytes of canonical JSON; the limit is ${MAX_CONTRACT_BYTES}.`, path: '$' });
    }
  } catch (error) {
    problems.push({ code: 'CONTRACT_SCHEMA_INVALID', message: `The document is not plain JSON: ${error instanceof Error ? error.message : String(error)}`, path: '$' });
  }
  for (const { field, code } of SCHEMA_FIELDS) {
    const schema = ownValue(document, field);
    if (!isPlainObject(schema)) continue;
    const meta = checkSchemaAgainstMeta(schema);
    if (!meta.ok) problems.push({ code, message: meta.message.slice(0, 500), path: formatJsonPath([field]) });
  }
  for (const field of CONDITION_FIELDS) {
    const conditions = ownValue(document, field);
    if (!Array.isArray(conditions)) continue;
    conditions.slice(0, 50).forEach((condition, index) => {
      const expression = ownValue(condition, 'expression');
      if (typeof expression !== 'string' || expression.length > 2000) return;
      const compiled = compileCondition({ id: 'lint', expression, message: 'lint' }, field === 'preconditions' ? 'pre' : 'post');
      if (!compiled.ok) problems.push({ code: 'CONTRACT_EXPRESSION_INVALID', message: compiled.message, path: formatJsonPath([field, index, 'expression']) });
    });
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
      problems.push({ code: 'CONTRACT_SCOPE_PATH_UNKNOWN', message: `"${path}" is not a property declared in the input schema.`, path: formatJsonPath(at) });
    }
  }
  return problems;
}

/**
 * Turns a JSONPath string from the compiler back into segments, guided by the document itself:
 * at each step the member whose formatted segment prefixes the rest of the path is taken, so
 * keys with dots, quotes or brackets in them resolve without parsing the quoting rules.
 */
export function segmentsOfJsonPath(root: unknown, path: string): PathSegment[] {
  const out: PathSegment[] = [];
  if (!path.startsWith('$')) return out;
  let rest = path.slice(1);
  let current = root;
  while (rest.length > 0 && out.length < 100) {
    const members: PathSegment[] = Array.isArray(current) ? current.map((_, i) => i) : isPlainObject(current) ? Object.keys(current) : [];
    let best: { segment: PathSegment; length: number } | undefined;
    for (const segment of members) {
      const text = formatJsonPath([segment]).slice(1);
      const boundary = rest[text.length];
      if (rest.startsWith(text) && (boundary === undefined || boundary === '.' || boundary === '[') && text.length > (best?.length ?? 0)) {
        best = { segment, length: text.length };
      }
    }
    if (!best) break;
    out.push(best.segment);
    rest = rest.slice(best.length);
    current = typeof best.segment === 'number' ? (current as unknown[])[best.segment] : ownValue(current, best.segment);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conditions: `args.…` paths the input schema does not declare

// Same limits as the compiler's environments; only parsing is needed here.
const celEnvironment = new Environment({ homogeneousAggregateLiterals: false, limits: { maxAstNodes: 2000, maxDepth: 64 } })
  .registerVariable('args', 'map')
  .registerVariable('context', 'map')
  .registerVariable('result', 'dyn');

interface ArgumentReference {
  path: PathSegment[];
  start: number;
  end: number;
}

/** The longest `args.a.b[0]` chains in an expression, with their offsets in the expression text. */
function argumentReferences(ast: ASTNode): ArgumentReference[] {
  const found: ArgumentReference[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
      continue;
    }
    if (!isAstNode(node)) continue;
    const chain = argumentChain(node);
    if (chain) {
      if (chain.length > 0) found.push({ path: chain, start: node.start, end: node.end });
      // Index expressions inside the chain (`args.items[args.i]`) are references too.
      collectIndexOperands(node, stack);
      continue;
    }
    if (Array.isArray(node.args)) stack.push(...(node.args as unknown[]));
    else if (isAstNode(node.args)) stack.push(node.args);
  }
  return found;
}

function isAstNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

/** `args.a[0].b` -> ['a', 0, 'b']; undefined when the node is not a chain rooted at `args`. */
function argumentChain(node: ASTNode): PathSegment[] | undefined {
  const reversed: PathSegment[] = [];
  let current: ASTNode = node;
  for (;;) {
    if (current.op === 'id') return current.args === 'args' ? reversed.reverse() : undefined;
    if (current.op === '.' || current.op === '.?') {
      reversed.push(current.args[1]);
      current = current.args[0];
      continue;
    }
    if (current.op === '[]' || current.op === '[?]') {
      const [target, index] = current.args;
      if (index.op !== 'value') {
        // A computed index: only the part before it can be checked.
        reversed.length = 0;
      } else if (typeof index.args === 'string') reversed.push(index.args);
      else if (typeof index.args === 'bigint' || typeof index.args === 'number') reversed.push(Number(index.args));
      else reversed.length = 0;
      current = target;
      continue;
    }
    return undefined;
  }
}

function collectIndexOperands(node: ASTNode, stack: unknown[]): void {
  let current: ASTNode = node;
  while (current.op === '.' || current.op === '.?' || current.op === '[]' || current.op === '[?]') {
    if (current.op === '[]' || current.op === '[?]') {
      stack.push(current.args[1]);
      current = current.args[0];
    } else current = current.args[0];
  }
}

function checkConditionArguments(document: Record<string, unknown>, input: unknown, parsed: ParsedDocument, report: Report): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isPlainObject(input)) return out;
  for (const field of CONDITION_FIELDS) {
    const conditions = ownValue(document, field);
    if (!Array.isArray(conditions)) continue;
    conditions.slice(0, 50).forEach((condition, index) => {
      const expression = ownValue(condition, 'expression');
      if (typeof expression !== 'string' || expression.length > 2000) return;
      let ast: ASTNode;
      try {
        ast = celEnvironment.parse(expression).ast;
      } catch {
        return; // reported as CONTRACT_EXPRESSION_INVALID
      }
      const at: PathSegment[] = [field, index, 'expression'];
      for (const reference of argumentReferences(ast)) {
        const status = argumentPathStatus(input, reference.path);
        if (status.declared) continue;
        const unknown = reference.path.slice(0, status.depth + 1);
        const diagnostic = report(
          'CONTRACT_CONDITION_UNKNOWN_ARGUMENT',
          `${fieldName(at)} reads args${formatJsonPath(unknown).slice(1)}, which the input schema does not declare (conditions fail closed: calls without it are refused).`,
          at,
        );
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, expression, reference.start, reference.end) });
      }
    });
  }
  return out;
}

/**
 * Narrows a scalar's range to characters `start..end` of its value, when the value is written
 * on one line verbatim (plain, or quoted without escapes); otherwise keeps the whole scalar.
 */
function rangeInsideScalar(parsed: ParsedDocument, range: SourceRange, value: string, start: number, end: number): SourceRange {
  if (range.startLine !== range.endLine) return range;
  const line = lineText(parsed.text, range.startLine);
  const source = line.slice(range.startColumn - 1, range.endColumn - 1);
  const offset = source === value ? 0 : source === `"${value}"` || source === `'${value}'` ? 1 : -1;
  if (offset < 0) return range;
  return { startLine: range.startLine, startColumn: range.startColumn + offset + start, endLine: range.startLine, endColumn: range.startColumn + offset + end };
}

function lineText(text: string, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
}

// ---------------------------------------------------------------------------------------------
// Annotations and argument aliases

function checkAnnotations(annotations: unknown, report: Report): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isPlainObject(annotations)) return out;
  const roles = ownValue(annotations, 'approver_roles');
  if (ownValue(annotations, 'approval_required') === true && !(Array.isArray(roles) && roles.length > 0)) {
    out.push(report(
      'CONTRACT_APPROVAL_NO_ROLES',
      '`approval_required` is true but `approver_roles` is empty: nobody could approve a call. Name at least one role.',
      hasOwn(annotations, 'approver_roles') ? ['annotations', 'approver_roles'] : ['annotations', 'approval_required'],
      hasOwn(annotations, 'approver_roles') ? 'value' : 'key',
    ));
  }
  const level = ownValue(annotations, 'side_effect_level');
  if ((level === 'external' || level === 'destructive') && ownValue(annotations, 'idempotent') === true && ownValue(annotations, 'idempotency_strategy') === undefined) {
    out.push(report(
      'CONTRACT_IDEMPOTENCY_STRATEGY_MISSING',
      `${level === 'external' ? 'An' : 'A'} ${level} tool marked \`idempotent: true\` should say how repeats are recognised: set \`idempotency_strategy\` to \`key\` or \`natural\`.`,
      ['annotations', 'idempotent'],
    ));
  }
  return out;
}

function checkArgumentAliases(aliases: unknown, input: unknown, report: Report): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isPlainObject(aliases)) return out;
  const properties = ownValue(input, 'properties');
  for (const alias of Object.keys(aliases).slice(0, 100)) {
    const canonical = aliases[alias];
    if (typeof canonical !== 'string') continue;
    out.push(report('CONTRACT_DEPRECATED_ARG_ALIAS', `${quote(alias)} is a deprecated alias of ${quote(canonical)}: callers should send ${quote(canonical)} instead.`, ['argument_aliases', alias], 'key'));
    if (!isPlainObject(input) || !schemaDeclaresPath(input, canonical)) {
      out.push(report('CONTRACT_ALIAS_TARGET_UNKNOWN', `Alias ${quote(alias)} maps to ${quote(canonical)}, which is not in \`input.properties\`.`, ['argument_aliases', alias]));
    }
    if (hasOwn(properties, alias)) {
      out.push(report('CONTRACT_ALIAS_SHADOWS_PROPERTY', `Alias ${quote(alias)} is also a property of the input schema; an alias must be a name the schema no longer declares.`, ['argument_aliases', alias], 'key'));
    }
  }
  return out;
}
