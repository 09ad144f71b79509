import type { ErrorObject } from 'ajv';
import { makeIssue, type ErrorCode, type ValidationIssue } from './error-codes';
import { describeValue } from '@toolgate/sdk/core';
import { formatJsonPath, instanceSegments, ownValue, pointerSegments } from './json-path';

/**
 * Translates Ajv errors into Toolgate issues. Messages are written for a model that has to fix
 * its call, so they name the field, the limit and the offending value (truncated: a model
 * that sent a megabyte string does not need it echoed back).
 */

/** Which value was checked; results and error payloads get one code for every schema issue. */
export type CheckedSubject = 'arguments' | 'result' | 'error';

export const MAX_ISSUES_PER_CHECK = 50;
const MAX_ENUM_VALUES = 20;

const RANGE_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const LENGTH_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const LENGTH_UNITS: Record<string, string> = {
  minLength: 'characters',
  maxLength: 'characters',
  minItems: 'items',
  maxItems: 'items',
  minProperties: 'properties',
  maxProperties: 'properties',
};
const BRANCH_KEYWORDS = new Set(['anyOf', 'oneOf']);

type Mapped = {
  code: ErrorCode;
  message: string;
  /** JSONPath of the offending value (or of the missing or unknown key). */
  path: string;
  constraint: Record<string, unknown>;
};

/** The path of the offending value and how a message names it (`items[0].sku`, or the subject). */
function locate(segments: (string | number)[], subject: CheckedSubject): { path: string; label: string } {
  const path = formatJsonPath(segments);
  if (segments.length === 0) return { path, label: subject };
  return { path, label: path.charCodeAt(1) === 0x2e ? path.slice(2) : path.slice(1) };
}

const MAX_SCHEMA_WALK = 64;

/** A schema with its local `$ref`s (`#/...`) followed; undefined when one cannot be resolved. */
function derefLocal(rootSchema: unknown, schema: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < MAX_SCHEMA_WALK; hops++) {
    const ref = ownValue(current, '$ref');
    if (typeof ref !== 'string') return current;
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = rootSchema;
    for (const segment of pointerSegments(decodeURIComponent(ref.slice(1)))) {
      target = Array.isArray(target) ? target[Number(segment)] : ownValue(target, segment);
    }
    current = target;
  }
  return undefined;
}

/** Whether `required` lists the key, in the schema or (one level down) in its `allOf` members. */
function listsRequired(rootSchema: unknown, schema: unknown, key: string): boolean {
  const required = ownValue(schema, 'required');
  if (Array.isArray(required) && required.includes(key)) return true;
  const members = ownValue(schema, 'allOf');
  if (!Array.isArray(members)) return false;
  return members.some((member) => {
    const memberRequired = ownValue(derefLocal(rootSchema, member), 'required');
    return Array.isArray(memberRequired) && memberRequired.includes(key);
  });
}

/**
 * Whether the value at `segments` is a property its object's schema lists as required. The
 * object's schema is found by walking the instance path down `properties`, `prefixItems` and
 * `items` (following local `$ref`s), so it does not matter how the property's own schema is
 * written (`type`, `enum`, `const`, `anyOf`, a `$ref`): a required key sent as null is missing.
 */
function isRequiredProperty(rootSchema: unknown, segments: readonly (string | number)[]): boolean {
  const key = segments[segments.length - 1];
  if (typeof key !== 'string' || segments.length > MAX_SCHEMA_WALK) return false;
  let schema = derefLocal(rootSchema, rootSchema);
  for (const segment of segments.slice(0, -1)) {
    if (typeof segment === 'number') {
      const prefix = ownValue(schema, 'prefixItems');
      schema = Array.isArray(prefix) && segment < prefix.length ? prefix[segment] : ownValue(schema, 'items');
    } else {
      schema = ownValue(ownValue(schema, 'properties'), segment);
    }
    schema = derefLocal(rootSchema, schema);
    if (schema === undefined) return false;
  }
  return listsRequired(rootSchema, schema, key);
}

// Messages are built only for the keyword at hand: this runs for every refused call.
function mapError(error: ErrorObject, data: unknown, rootSchema: unknown, subject: CheckedSubject, branchHints: string[]): Mapped {
  const segments = instanceSegments(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const keyword = error.keyword;

  if (keyword === 'required' || keyword === 'dependentRequired') {
    const missing = String(params.missingProperty);
    const { path, label } = locate([...segments, missing], subject);
    const because = keyword === 'dependentRequired' ? ` when ${String(params.property)} is present` : '';
    return { code: 'AXAG_MISSING_PARAM', message: `${label} is required${because}`, path, constraint: { keyword, ...params } };
  }
  if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
    const extra = String(params.additionalProperty ?? params.unevaluatedProperty);
    const { path, label } = locate([...segments, extra], subject);
    return { code: 'AXAG_UNKNOWN_PARAM', message: `${label} is not a declared parameter`, path, constraint: { keyword } };
  }
  const { path, label } = locate(segments, subject);
  // A required key sent as null is not provided (AXAG: "present and non-null"), whichever
  // keyword of its schema refused the null.
  if (error.data === null && isRequiredProperty(rootSchema, segments)) {
    const expected = keyword === 'type' ? ` (expected ${Array.isArray(params.type) ? params.type.join(' or ') : String(params.type)})` : '';
    return {
      code: 'AXAG_MISSING_PARAM',
      message: `${label} is required and must be present and non-null${expected}`,
      path,
      constraint: { keyword: 'required', ...(keyword === 'type' ? { type: params.type } : { refused_by: keyword }) },
    };
  }
  if (keyword === 'type') {
    const expected = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type);
    return {
      code: 'AXAG_INVALID_TYPE',
      message: `${label} must be ${expected}, got ${describeValue(error.data)}`,
      path,
      constraint: { keyword, type: params.type },
    };
  }
  if (RANGE_KEYWORDS.has(keyword)) {
    return {
      code: 'AXAG_OUT_OF_RANGE',
      message: `${label} must be ${String(params.comparison)} ${String(params.limit)}, got ${describeValue(error.data)}`,
      path,
      constraint: { keyword, limit: params.limit, comparison: params.comparison },
    };
  }
  if (keyword === 'enum') {
    const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
    const shown = allowed.slice(0, MAX_ENUM_VALUES);
    const more = allowed.length > shown.length ? `, … (${allowed.length - shown.length} more)` : '';
    return {
      code: 'AXAG_INVALID_ENUM',
      message: `${label} must be one of ${shown.map(describeValue).join(', ')}${more}; got ${describeValue(error.data)}`,
      path,
      constraint: { keyword, allowed: shown, truncated: allowed.length > shown.length },
    };
  }
  if (keyword === 'format') {
    return {
      code: 'AXAG_INVALID_FORMAT',
      message: `${label} must be a valid ${String(params.format)}, got ${describeValue(error.data)}`,
      path,
      constraint: { keyword, format: params.format },
    };
  }
  if (keyword === 'pattern') {
    return {
      code: 'AXAG_PATTERN_MISMATCH',
      message: `${label} must match the pattern ${describeValue(params.pattern)}, got ${describeValue(error.data)}`,
      path,
      constraint: { keyword, pattern: params.pattern },
    };
  }
  if (LENGTH_KEYWORDS.has(keyword)) {
    const bound = keyword.startsWith('min') ? 'at least' : 'at most';
    return {
      code: 'AXAG_INVALID_LENGTH',
      message: `${label} must have ${bound} ${String(params.limit)} ${LENGTH_UNITS[keyword] ?? 'elements'}`,
      path,
      constraint: { keyword, limit: params.limit },
    };
  }
  return { code: 'AXAG_CONSTRAINT_VIOLATION', message: otherMessage(error, label, branchHints), path, constraint: { keyword, ...params } };
}

function otherMessage(error: ErrorObject, label: string, branchHints: string[]): string {
  const params = error.params as Record<string, unknown>;
  const hint = branchHints.length > 0 ? ` (${branchHints.slice(0, 3).join('; ')})` : '';
  switch (error.keyword) {
    case 'const':
      return `${label} must equal ${describeValue(params.allowedValue)}, got ${describeValue(error.data)}`;
    case 'multipleOf':
      return `${label} must be a multiple of ${String(params.multipleOf)}, got ${describeValue(error.data)}`;
    case 'uniqueItems':
      return `${label} must not contain duplicate items (items ${String(params.j)} and ${String(params.i)} are equal)`;
    case 'anyOf':
      return `${label} must match at least one allowed shape${hint}, got ${describeValue(error.data)}`;
    case 'oneOf':
      return `${label} must match exactly one allowed shape${hint}, got ${describeValue(error.data)}`;
    case 'not':
      return `${label} must not match the excluded shape, got ${describeValue(error.data)}`;
    default:
      return `${label} ${error.message ?? 'violates a constraint'}`;
  }
}

export type AjvIssuesOptions = {
  errors: readonly ErrorObject[] | null | undefined;
  /** The validated value, used to tell array indexes from numeric-looking keys. */
  data: unknown;
  /** The root schema, used to tell a required `null` apart from a plain type error. */
  schema: unknown;
  intent: string;
  subject: CheckedSubject;
};

const NO_HINTS: string[] = [];

function startsWithAny(text: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (text.startsWith(prefix)) return true;
  return false;
}

/** What the failing branches of an anyOf/oneOf said, for its summary. */
function branchHintsFor(errors: readonly ErrorObject[], branch: ErrorObject): string[] {
  const prefix = `${branch.schemaPath}/`;
  const hints: string[] = [];
  for (const e of errors) if (e.schemaPath.startsWith(prefix) && e.instancePath === branch.instancePath) hints.push(e.message ?? e.keyword);
  return hints;
}

export function ajvIssues({ errors, data, schema, intent, subject }: AjvIssuesOptions): ValidationIssue[] {
  if (!errors || errors.length === 0) return [];
  // anyOf/oneOf report every failing branch and then a summary; the branch errors describe
  // shapes the caller never intended, so only the summary is kept, with a short hint.
  const branchRoots: string[] = [];
  let hasOtherThanIf = false;
  for (const e of errors) {
    if (BRANCH_KEYWORDS.has(e.keyword)) branchRoots.push(`${e.schemaPath}/`);
    if (e.keyword !== 'if') hasOtherThanIf = true;
  }
  const issues: ValidationIssue[] = [];
  let missingNulls: Set<string> | undefined;
  for (const error of errors) {
    if (issues.length >= MAX_ISSUES_PER_CHECK) break;
    if (branchRoots.length > 0 && startsWithAny(error.schemaPath, branchRoots)) continue;
    // `if` failing only repeats that its then/else branch failed; those errors are reported.
    if (error.keyword === 'if' && hasOtherThanIf) continue;
    const hints = BRANCH_KEYWORDS.has(error.keyword) ? branchHintsFor(errors, error) : NO_HINTS;
    const mapped = mapError(error, data, schema, subject, hints);
    // A required null refused by two keywords (`type` and `enum`) is one missing parameter.
    if (mapped.code === 'AXAG_MISSING_PARAM' && error.data === null) {
      if (missingNulls?.has(mapped.path)) continue;
      (missingNulls ??= new Set()).add(mapped.path);
    }
    const code: ErrorCode =
      subject === 'result' ? 'AXAG_OUTPUT_MISMATCH' : subject === 'error' ? 'AXAG_ERROR_SCHEMA_MISMATCH' : mapped.code;
    const constraint = subject === 'arguments' ? mapped.constraint : { ...mapped.constraint, mapped_code: mapped.code };
    issues.push(makeIssue(code, { intent, message: mapped.message, path: mapped.path, constraint }));
  }
  return issues;
}
