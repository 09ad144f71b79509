import { formatJsonPath, ownValue, pointerSegments } from '@/lib/validation/json-path';
import type { ContractProblem } from './contract-problems';
import { checkPattern } from './json-schema-engine';
import { schemaResources } from './schema-resources';
import { countJsonNodes, isJsonObject } from '../json';

/**
 * Static checks on contract JSON Schemas that Ajv either cannot express or would only report
 * by throwing: references out of the document (schema-resources.ts), `$data`, and regexes RE2
 * cannot run. The walk follows the
 * 2020-12 subschema keywords, so a property that happens to be *named* `pattern` or `$ref` is
 * not mistaken for the keyword.
 */

type Segments = (string | number)[];

/** The 2020-12 keywords whose value is one subschema, a list of them, or a map of them. */
export const SCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'additionalItems',
  'contentSchema',
] as const;
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

/** Visits every subschema (objects only; boolean schemas hold nothing to check). */
function walkSchemas(root: unknown, base: Segments, visit: (schema: Record<string, unknown>, path: Segments) => void): void {
  const stack: { schema: unknown; path: Segments }[] = [{ schema: root, path: base }];
  while (stack.length > 0) {
    const { schema, path } = stack.pop()!;
    if (!isJsonObject(schema)) continue;
    visit(schema, path);
    for (const keyword of SCHEMA_KEYWORDS) {
      const sub = ownValue(schema, keyword);
      // Draft-07 style array `items` is still walked so nothing escapes the checks.
      if (Array.isArray(sub)) sub.forEach((s, i) => stack.push({ schema: s, path: [...path, keyword, i] }));
      else if (sub !== undefined) stack.push({ schema: sub, path: [...path, keyword] });
    }
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const subs = ownValue(schema, keyword);
      if (Array.isArray(subs)) subs.forEach((s, i) => stack.push({ schema: s, path: [...path, keyword, i] }));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = ownValue(schema, keyword);
      if (!isJsonObject(map)) continue;
      for (const key of Object.keys(map)) stack.push({ schema: map[key], path: [...path, keyword, key] });
    }
  }
}

// Ajv leaves a "__proto__" key out of these keywords' maps (a guard against prototype
// pollution in its generated code), so a schema declaring one would silently check nothing.
const PROTO_KEYED_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'dependencies'] as const;
const FIELD_SCHEMA_INVALID = {
  input: 'CONTRACT_INPUT_SCHEMA_INVALID',
  output: 'CONTRACT_OUTPUT_SCHEMA_INVALID',
  errors: 'CONTRACT_ERRORS_SCHEMA_INVALID',
} as const;

/**
 * Distinct regexes (`pattern` values and `patternProperties` keys) one schema may use. Ajv gives
 * each its own variable and joins their declarations one by one, copying what came before, so
 * its code generation is quadratic in them: 5,000 patterns (a 228 KB contract) took 6.3 s to
 * compile and 4,000 `patternProperties` 7.9 s, and 2,000 of those overflowed the stack. A viewer
 * can make the server compile a draft (the impact preview). 500 compile in about 0.3 s.
 */
export const MAX_SCHEMA_PATTERNS = 500;

export function findSchemaProblems(schema: unknown, field: 'input' | 'output' | 'errors'): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const resources = schemaResources(schema);
  walkSchemas(schema, [field], (node, path) => {
    if (Object.prototype.hasOwnProperty.call(node, '$data')) {
      problems.push({
        code: 'CONTRACT_DATA_REF',
        message: '`$data` is not allowed in contract schemas.',
        path: formatJsonPath([...path, '$data']),
      });
    }
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (isJsonObject(value) && Object.prototype.hasOwnProperty.call(value, '$data') && !isMapKeyword(key)) {
        problems.push({
          code: 'CONTRACT_DATA_REF',
          message: `\`$data\` is not allowed (in \`${key}\`).`,
          path: formatJsonPath([...path, key, '$data']),
        });
      }
    }
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = ownValue(node, keyword);
      if (typeof ref === 'string' && !resources.isLocal(node, ref)) {
        problems.push({
          code: 'CONTRACT_REMOTE_REF',
          message: `${keyword} "${ref.slice(0, 200)}" is not local; only "#..." references and the $id of a schema embedded in the document are allowed.`,
          path: formatJsonPath([...path, keyword]),
        });
      }
    }
    for (const keyword of PROTO_KEYED_KEYWORDS) {
      const map = ownValue(node, keyword);
      if (!isJsonObject(map) || !Object.prototype.hasOwnProperty.call(map, '__proto__')) continue;
      problems.push({
        code: FIELD_SCHEMA_INVALID[field],
        message: `\`${keyword}\` names "__proto__": the validator skips that key, so nothing it declares would be checked. Rename the property.`,
        path: formatJsonPath([...path, keyword, '__proto__']),
      });
    }
    const pattern = ownValue(node, 'pattern');
    if (typeof pattern === 'string') pushPatternProblem(problems, pattern, [...path, 'pattern']);
    const patternProperties = ownValue(node, 'patternProperties');
    if (isJsonObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        pushPatternProblem(problems, key, [...path, 'patternProperties', key]);
      }
    }
  });
  problems.push(...schemaSizeProblems(schema, field));
  return problems;
}

/**
 * Past this many objects and arrays a schema that uses `unevaluatedProperties` or
 * `unevaluatedItems` is refused: Ajv's compile of them grows with the square of the properties
 * and members they cover (an allOf of 1,500 members took 3 s; 2,000 properties 1.7 s and then
 * overflowed the stack), and a viewer can make the server compile a draft (the impact preview).
 * 1,000 compile in about 0.3 s. `additionalProperties` has no such cost.
 */
export const MAX_UNEVALUATED_SCHEMA_NODES = 1_000;

/** A schema's problems of size: too many distinct patterns, or too large for `unevaluated*`. */
export function schemaSizeProblems(schema: unknown, field: 'input' | 'output' | 'errors'): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const tooManyPatterns = patternCountProblem(schema, field);
  if (tooManyPatterns) problems.push(tooManyPatterns);
  let unevaluated: Segments | null = null;
  walkSchemas(schema, [field], (node, path) => {
    if (unevaluated) return;
    for (const keyword of ['unevaluatedProperties', 'unevaluatedItems'])
      if (Object.prototype.hasOwnProperty.call(node, keyword)) unevaluated = [...path, keyword];
  });
  const nodes = unevaluated ? countJsonNodes(schema, MAX_UNEVALUATED_SCHEMA_NODES) : 0;
  if (unevaluated && nodes > MAX_UNEVALUATED_SCHEMA_NODES) {
    problems.push({
      code: FIELD_SCHEMA_INVALID[field],
      message: `A schema using unevaluatedProperties or unevaluatedItems may hold at most ${MAX_UNEVALUATED_SCHEMA_NODES} objects and arrays; this one holds more. Use additionalProperties, or split the schema.`,
      path: formatJsonPath(unevaluated),
    });
  }
  return problems;
}

/** The problem of a schema using more than MAX_SCHEMA_PATTERNS distinct patterns, if it does. */
export function patternCountProblem(schema: unknown, field: 'input' | 'output' | 'errors'): ContractProblem | null {
  const patterns = new Set<string>();
  walkSchemas(schema, [field], (node) => {
    const pattern = ownValue(node, 'pattern');
    if (typeof pattern === 'string') patterns.add(pattern);
    const patternProperties = ownValue(node, 'patternProperties');
    if (isJsonObject(patternProperties)) for (const key of Object.keys(patternProperties)) patterns.add(key);
  });
  if (patterns.size <= MAX_SCHEMA_PATTERNS) return null;
  return {
    code: FIELD_SCHEMA_INVALID[field],
    message: `The schema uses ${patterns.size} distinct patterns (\`pattern\` and \`patternProperties\`); the limit is ${MAX_SCHEMA_PATTERNS}.`,
    path: formatJsonPath([field]),
  };
}

function isMapKeyword(key: string): boolean {
  return (SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key);
}

function pushPatternProblem(problems: ContractProblem[], pattern: string, path: Segments): void {
  const check = checkPattern(pattern);
  if (check.ok) return;
  problems.push({
    code: 'CONTRACT_REGEX_UNSAFE',
    message: `Pattern "${pattern.slice(0, 200)}" cannot run on the linear-time RE2 engine: ${check.reason}`,
    path: formatJsonPath(path),
  });
}

/** Resolves a local `#/a/b` reference against the schema root; anchors are not followed. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/') && ref !== '#') return undefined;
  let current: unknown = root;
  for (const segment of pointerSegments(decodeURIComponent(ref.slice(1)))) {
    current = Array.isArray(current) ? current[Number(segment)] : ownValue(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * Whether a dotted argument path names a declared property: follows `properties`, local
 * `$ref`s and `allOf`/`anyOf`/`oneOf` branches (any branch declaring the key is enough).
 */
export function schemaDeclaresPath(root: unknown, dotted: string): boolean {
  let frontier: unknown[] = [root];
  for (const key of dotted.split('.')) {
    const next: unknown[] = [];
    const seen = new Set<unknown>();
    const queue = [...frontier];
    while (queue.length > 0) {
      const schema = queue.pop();
      if (!isJsonObject(schema) || seen.has(schema)) continue;
      seen.add(schema);
      const ref = ownValue(schema, '$ref');
      if (typeof ref === 'string') queue.push(resolveLocalRef(root, ref));
      for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
        const branches = ownValue(schema, keyword);
        if (Array.isArray(branches)) queue.push(...(branches as unknown[]));
      }
      const property = ownValue(ownValue(schema, 'properties'), key);
      if (property !== undefined) next.push(property);
    }
    if (next.length === 0) return false;
    frontier = next;
  }
  return true;
}
