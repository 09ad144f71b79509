import { checkPattern, isKnownFormat } from '../contracts/json-schema-engine';
import { SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from '../contracts/schema-guards';
import { schemaResources, type SchemaResources } from '../contracts/schema-resources';
import { hasOwn, isPlainObject } from '../json';
import { ownValue } from '../validation/json-path';
import type { PathSegment } from './parse-document';
import type { CodeInfo, CodeRegistry } from './rules/registry';
import { diagnosticAt, fieldName, quote, type Locate } from './rules/report';
import { declaresKey } from './schema-declarations';
import type { Diagnostic } from './types';

/**
 * Semantic checks inside the JSON Schemas a document carries (a contract's
 * `input`/`output`/`errors`): what a meta-schema cannot say, such as bounds that admit nothing.
 * Reads untrusted data through own-property access only and walks iteratively.
 */

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
    summary:
      'A `required` key is declared by no `properties` (nor `patternProperties`, `additionalProperties` or a combined subschema): usually a typo, and callers get no type for it.',
  },
  MIN_GREATER_THAN_MAX: {
    severity: 'error',
    summary:
      'A lower bound exceeds its upper bound (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`, `minProperties`/`maxProperties`, `minContains`/`maxContains`, exclusive bounds): no value can be valid.',
  },
  EMPTY_ENUM: { severity: 'error', summary: 'An `enum` lists no values: no value can be valid.' },
  REGEX_UNSAFE: {
    severity: 'error',
    summary:
      'A `pattern` or `patternProperties` regex is invalid or cannot run on the linear-time RE2 engine (backreferences, lookaround, ...).',
  },
  REMOTE_REF: {
    severity: 'error',
    summary:
      'A `$ref` or `$dynamicRef` points outside the schema; only local `#...` references and the `$id` of a schema embedded in the same document are allowed.',
  },
  DATA_REF: { severity: 'error', summary: 'A `$data` reference was used; schema constraints must be static.' },
  UNKNOWN_FORMAT: {
    severity: 'error',
    summary:
      'A `format` is not one Toolgate checks (those of ajv-formats: `email`, `date`, `date-time`, `uri`, `uuid`, `ipv4`, ...), so it would accept any value: formats are assertions in contracts, and an unknown one (a typo such as `emial`) checks nothing.',
  },
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
        report(
          'MIN_GREATER_THAN_MAX',
          `\`${low}\` (${min}) ${min === max ? 'equals' : 'is greater than'} \`${high}\` (${max}) in ${fieldName(at)}: no value can be valid.`,
          [...at, low],
          'key',
        );
      }
    }
    const enumValues = ownValue(node, 'enum');
    if (Array.isArray(enumValues) && enumValues.length === 0) {
      report('EMPTY_ENUM', `\`enum\` in ${fieldName(at)} lists no values: no value can be valid.`, [...at, 'enum']);
    }
    const format = ownValue(node, 'format');
    if (typeof format === 'string' && !isKnownFormat(format)) {
      report(
        'UNKNOWN_FORMAT',
        `Format ${quote(format)} in ${fieldName(at)} is not one Toolgate checks, so it would accept any value; use a known format or a \`pattern\`.`,
        [...at, 'format'],
      );
    }
    const pattern = ownValue(node, 'pattern');
    if (typeof pattern === 'string') {
      const check = checkPattern(pattern);
      if (!check.ok)
        report('REGEX_UNSAFE', `Pattern ${quote(pattern)} cannot run on the linear-time RE2 engine: ${check.reason}`, [...at, 'pattern']);
    }
    const patternProperties = ownValue(node, 'patternProperties');
    if (isPlainObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const check = checkPattern(key);
        if (!check.ok)
          report(
            'REGEX_UNSAFE',
            `Pattern ${quote(key)} cannot run on the linear-time RE2 engine: ${check.reason}`,
            [...at, 'patternProperties', key],
            'key',
          );
      }
    }
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = ownValue(node, keyword);
      if (typeof ref === 'string' && !(resources ??= schemaResources(schema)).isLocal(node, ref)) {
        report(
          'REMOTE_REF',
          `${keyword} ${quote(ref)} is not local; only "#..." references and the $id of a schema embedded in the document are allowed.`,
          [...at, keyword],
        );
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
    report('REQUIRED_NOT_IN_PROPERTIES', `Required key ${quote(key)} is not declared in the \`properties\` of ${fieldName(at)}.`, [
      ...at,
      'required',
      index,
    ]);
  });
}
