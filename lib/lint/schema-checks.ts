import type { z } from 'zod';
import { RE2JS } from 're2js';
import { checkPattern, toRe2Syntax } from '../contracts/json-schema-engine';
import { schemaResources, type SchemaResources } from '../contracts/schema-resources';
import { formatJsonPath, ownValue, pointerSegments } from '../validation/json-path';
import type { ParsedDocument, PathSegment } from './parse-document';
import type { Diagnostic, Severity } from './types';

/**
 * Checks shared by the contract, policy and surface linters: a document's conformance to its Zod
 * schema, and semantic checks inside the JSON Schemas a document carries (a contract's
 * `input`/`output`/`errors`, a surface tool's inline parameters). Everything here reads
 * untrusted data through own-property access only and walks iteratively.
 */

export type Locate = ParsedDocument['locate'];

export interface CodeInfo {
  severity: Severity;
  summary: string;
}
export type CodeRegistry = Readonly<Record<string, CodeInfo>>;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function hasOwn(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);
}

/** Author-supplied text quoted in a message, bounded so a hostile document cannot bloat output. */
export function quote(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** A path as authors read it in messages: `annotations.approver_roles`, `input.required[1]`. */
export function fieldName(path: readonly PathSegment[]): string {
  return path.length === 0 ? 'the document' : formatJsonPath(path).replace(/^\$\.?/, '');
}

export function diagnosticAt(
  locate: Locate,
  code: string,
  severity: Severity,
  message: string,
  path: readonly PathSegment[],
  part: 'key' | 'value' = 'value',
): Diagnostic {
  return { code, severity, message, path: formatJsonPath(path), range: locate(path, part), target: 'document' };
}

/** Builds diagnostics for the codes of one registry, taking each code's severity from it. */
export function reporterFor<R extends CodeRegistry>(registry: R, locate: Locate) {
  return (code: keyof R & string, message: string, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Diagnostic =>
    diagnosticAt(locate, code, registry[code]!.severity, message, path, part);
}

// ---------------------------------------------------------------------------------------------
// Conformance: Zod issues to diagnostics

function issuePath(path: readonly PropertyKey[]): PathSegment[] {
  return path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else current = ownValue(current, String(segment));
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * One diagnostic per Zod issue, at its path: unknown keys underline the key itself, a missing
 * field underlines its parent's key, a record key with a bad name underlines that key.
 */
export function conformanceDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  locate: Locate,
  code: string,
  severity: Severity = 'error',
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues.slice(0, 200)) {
    const path = issuePath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, 50)) {
        out.push(diagnosticAt(locate, code, severity, `Unknown field ${quote(key)} in ${fieldName(path)}.`, [...path, key], 'key'));
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const inner = issue.issues[0]?.message ?? issue.message;
      out.push(diagnosticAt(locate, code, severity, `${fieldName(path)}: invalid key: ${inner}`, path, 'key'));
      continue;
    }
    const last = path[path.length - 1];
    const parent = path.length > 0 ? valueAt(root, path.slice(0, -1)) : undefined;
    if (typeof last === 'string' && isPlainObject(parent) && !hasOwn(parent, last)) {
      const missing = diagnosticAt(locate, code, severity, `Missing required field ${quote(last)} in ${fieldName(path.slice(0, -1))}.`, path);
      // An array item has no key to underline; its first key stands in for the whole item.
      const [firstKey] = Object.keys(parent);
      const inItem = typeof path[path.length - 2] === 'number' && firstKey !== undefined;
      out.push(inItem ? { ...missing, range: locate([...path.slice(0, -1), firstKey], 'key') } : missing);
      continue;
    }
    out.push(diagnosticAt(locate, code, severity, `${fieldName(path)}: ${issue.message}`, path));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema semantics

const SCHEMA_KEYWORDS = [
  'not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'items',
  'unevaluatedItems', 'contains', 'propertyNames', 'additionalItems', 'contentSchema',
] as const;
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Subschemas that constrain the same instance as their parent, so they see its properties. */
const SAME_INSTANCE_KEYWORDS = new Set<string>(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);

/** Lower bound, upper bound, and whether equal bounds already leave nothing valid. */
const BOUND_PAIRS = [
  ['minimum', 'maximum', false],
  ['exclusiveMinimum', 'exclusiveMaximum', true],
  ['minimum', 'exclusiveMaximum', true],
  ['exclusiveMinimum', 'maximum', true],
  ['minLength', 'maxLength', false],
  ['minItems', 'maxItems', false],
  ['minProperties', 'maxProperties', false],
  ['minContains', 'maxContains', false],
] as const;

const SCHEMA_CHECKS = {
  REQUIRED_NOT_IN_PROPERTIES: {
    severity: 'error',
    summary: 'A `required` key is declared by no `properties` (nor `patternProperties`, `additionalProperties` or a combined subschema): usually a typo, and callers get no type for it.',
  },
  MIN_GREATER_THAN_MAX: {
    severity: 'error',
    summary: 'A lower bound exceeds its upper bound (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`, `minProperties`/`maxProperties`, `minContains`/`maxContains`, exclusive bounds): no value can be valid.',
  },
  EMPTY_ENUM: { severity: 'error', summary: 'An `enum` lists no values: no value can be valid.' },
  REGEX_UNSAFE: {
    severity: 'error',
    summary: 'A `pattern` or `patternProperties` regex is invalid or cannot run on the linear-time RE2 engine (backreferences, lookaround, ...).',
  },
  REMOTE_REF: { severity: 'error', summary: 'A `$ref` or `$dynamicRef` points outside the schema; only local `#...` references and the `$id` of a schema embedded in the same document are allowed.' },
  DATA_REF: { severity: 'error', summary: 'A `$data` reference was used; schema constraints must be static.' },
} as const satisfies CodeRegistry;

type SchemaCheck = keyof typeof SCHEMA_CHECKS;
type SchemaLintCodes<P extends string> = { readonly [K in SchemaCheck as `${P}_${K}`]: CodeInfo };

/**
 * The JSON Schema checks' codes under a document prefix (`CONTRACT_REGEX_UNSAFE`,
 * `TOOL_SURFACE_REGEX_UNSAFE`), so each document kind's codes share its prefix and the contract
 * codes match what the contract compiler reports for the same finding.
 */
export function jsonSchemaLintCodes<P extends string>(prefix: P): SchemaLintCodes<P> {
  const out: Record<string, CodeInfo> = {};
  for (const key of Object.keys(SCHEMA_CHECKS) as SchemaCheck[]) out[`${prefix}_${key}`] = SCHEMA_CHECKS[key];
  return out as SchemaLintCodes<P>;
}

type Frame = { schema: unknown; path: PathSegment[]; context: readonly Record<string, unknown>[] };

/**
 * Semantic checks on one JSON Schema found at `path` in the document. Walks every subschema
 * (properties, items, prefixItems, $defs, allOf/anyOf/oneOf, ...), so a finding deep inside gets
 * its exact path. Never throws.
 */
export function checkJsonSchema(schema: unknown, path: readonly PathSegment[], locate: Locate, prefix: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (check: SchemaCheck, message: string, at: readonly PathSegment[], part: 'key' | 'value' = 'value') =>
    out.push(diagnosticAt(locate, `${prefix}_${check}`, SCHEMA_CHECKS[check].severity, message, at, part));

  const stack: Frame[] = [{ schema, path: [...path], context: [] }];
  // Built on the first non-fragment reference only: most schemas have none.
  let resources: SchemaResources | undefined;
  let visited = 0;
  while (stack.length > 0 && visited++ < 50_000) {
    const { schema: node, path: at, context } = stack.pop()!;
    if (!isPlainObject(node)) continue;

    checkRequired(node, at, context, schema, report);
    for (const [low, high, strict] of BOUND_PAIRS) {
      const min = ownValue(node, low);
      const max = ownValue(node, high);
      if (typeof min !== 'number' || typeof max !== 'number') continue;
      if (min > max || (strict && min === max)) {
        report('MIN_GREATER_THAN_MAX', `\`${low}\` (${min}) ${min === max ? 'equals' : 'is greater than'} \`${high}\` (${max}) in ${fieldName(at)}: no value can be valid.`, [...at, low], 'key');
      }
    }
    const enumValues = ownValue(node, 'enum');
    if (Array.isArray(enumValues) && enumValues.length === 0) {
      report('EMPTY_ENUM', `\`enum\` in ${fieldName(at)} lists no values: no value can be valid.`, [...at, 'enum']);
    }
    const pattern = ownValue(node, 'pattern');
    if (typeof pattern === 'string') {
      const check = checkPattern(pattern);
      if (!check.ok) report('REGEX_UNSAFE', `Pattern ${quote(pattern)} cannot run on the linear-time RE2 engine: ${check.reason}`, [...at, 'pattern']);
    }
    const patternProperties = ownValue(node, 'patternProperties');
    if (isPlainObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const check = checkPattern(key);
        if (!check.ok) report('REGEX_UNSAFE', `Pattern ${quote(key)} cannot run on the linear-time RE2 engine: ${check.reason}`, [...at, 'patternProperties', key], 'key');
      }
    }
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = ownValue(node, keyword);
      if (typeof ref === 'string' && !(resources ??= schemaResources(schema)).isLocal(node, ref)) {
        report('REMOTE_REF', `${keyword} ${quote(ref)} is not local; only "#..." references and the $id of a schema embedded in the document are allowed.`, [...at, keyword]);
      }
    }
    if (hasOwn(node, '$data')) report('DATA_REF', '`$data` is not allowed in schemas.', [...at, '$data'], 'key');
    for (const key of Object.keys(node)) {
      if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key)) continue;
      if (isPlainObject(node[key]) && hasOwn(node[key], '$data')) {
        report('DATA_REF', `\`$data\` is not allowed (in \`${key}\`).`, [...at, key, '$data'], 'key');
      }
    }

    const inner = [...context, node];
    const push = (sub: unknown, subPath: PathSegment[], keyword: string) =>
      stack.push({ schema: sub, path: subPath, context: SAME_INSTANCE_KEYWORDS.has(keyword) ? inner : [] });
    for (const keyword of SCHEMA_KEYWORDS) {
      const sub = ownValue(node, keyword);
      if (Array.isArray(sub)) sub.forEach((s, i) => push(s, [...at, keyword, i], keyword));
      else if (sub !== undefined) push(sub, [...at, keyword], keyword);
    }
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const subs = ownValue(node, keyword);
      if (Array.isArray(subs)) subs.forEach((s, i) => push(s, [...at, keyword, i], keyword));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = ownValue(node, keyword);
      if (!isPlainObject(map)) continue;
      for (const key of Object.keys(map)) push(map[key], [...at, keyword, key], keyword);
    }
  }
  return out;
}

function checkRequired(
  node: Record<string, unknown>,
  at: PathSegment[],
  context: readonly Record<string, unknown>[],
  root: unknown,
  report: (check: SchemaCheck, message: string, at: readonly PathSegment[]) => void,
): void {
  const required = ownValue(node, 'required');
  if (!Array.isArray(required)) return;
  const scope = [...context, node];
  required.forEach((key, index) => {
    if (typeof key !== 'string') return;
    if (scope.some((schema) => declaresKey(schema, key, root))) return;
    report('REQUIRED_NOT_IN_PROPERTIES', `Required key ${quote(key)} is not declared in the \`properties\` of ${fieldName(at)}.`, [...at, 'required', index]);
  });
}

/** Resolves a local `#/a/b` reference against the schema root; anchors are not followed. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  let current: unknown = root;
  for (const segment of pointerSegments(decoded)) {
    current = Array.isArray(current) ? (current[Number(segment)] as unknown) : ownValue(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * The schemas that constrain the same instance as `schema`: itself plus, transitively, its
 * local `$ref` target and `allOf`/`anyOf`/`oneOf`/`then`/`else`/`dependentSchemas` branches.
 */
function sameInstanceSchemas(schema: unknown, root: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [schema];
  while (queue.length > 0 && out.length < 1000) {
    const current = queue.pop();
    if (!isPlainObject(current) || seen.has(current)) continue;
    seen.add(current);
    out.push(current);
    const ref = ownValue(current, '$ref');
    if (typeof ref === 'string') queue.push(resolveLocalRef(root, ref));
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = ownValue(current, keyword);
      if (Array.isArray(branches)) queue.push(...(branches as unknown[]));
    }
    queue.push(ownValue(current, 'then'), ownValue(current, 'else'));
    const dependent = ownValue(current, 'dependentSchemas');
    if (isPlainObject(dependent)) queue.push(...Object.values(dependent));
  }
  return out;
}

function patternMatches(pattern: string, key: string): boolean {
  try {
    return RE2JS.compile(toRe2Syntax(pattern)).test(key);
  } catch {
    // An unusable pattern is reported as REGEX_UNSAFE; it should not also cause a second finding.
    return true;
  }
}

function declaresKey(schema: Record<string, unknown>, key: string, root: unknown): boolean {
  for (const candidate of sameInstanceSchemas(schema, root)) {
    if (hasOwn(ownValue(candidate, 'properties'), key)) return true;
    if (isPlainObject(ownValue(candidate, 'additionalProperties'))) return true;
    const patternProperties = ownValue(candidate, 'patternProperties');
    if (isPlainObject(patternProperties) && Object.keys(patternProperties).some((p) => patternMatches(p, key))) return true;
  }
  return false;
}

/**
 * Whether a path into the arguments (`['order', 'items', 0, 'sku']`) is declared by the input
 * schema. Answers `undeclared` only where the schema lists its properties and none of them (nor
 * `patternProperties` or an `additionalProperties` schema) admits the key; a free-form object
 * or array stops the search as `declared`, since nothing more can be known there.
 */
export function argumentPathStatus(
  root: unknown,
  path: readonly PathSegment[],
): { declared: true } | { declared: false; depth: number } {
  let frontier = sameInstanceSchemas(root, root);
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth]!;
    const next: unknown[] = [];
    if (typeof segment === 'number') {
      for (const schema of frontier) {
        const prefixItems = ownValue(schema, 'prefixItems');
        if (Array.isArray(prefixItems) && segment < prefixItems.length) next.push(prefixItems[segment]);
        else if (ownValue(schema, 'items') !== undefined) next.push(ownValue(schema, 'items'));
      }
    } else {
      let listsProperties = false;
      for (const schema of frontier) {
        const properties = ownValue(schema, 'properties');
        if (isPlainObject(properties)) listsProperties = true;
        if (hasOwn(properties, segment)) next.push(ownValue(properties, segment));
        const additional = ownValue(schema, 'additionalProperties');
        if (isPlainObject(additional)) next.push(additional);
        const patternProperties = ownValue(schema, 'patternProperties');
        if (isPlainObject(patternProperties)) {
          for (const p of Object.keys(patternProperties)) if (patternMatches(p, segment)) next.push(patternProperties[p]);
        }
      }
      if (next.length === 0 && listsProperties) return { declared: false, depth };
    }
    if (next.length === 0) return { declared: true };
    frontier = next.flatMap((schema) => sameInstanceSchemas(schema, root));
    if (frontier.length === 0) return { declared: true };
  }
  return { declared: true };
}
