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
  segments: (string | number)[];
  constraint: Record<string, unknown>;
};

function fieldLabel(segments: (string | number)[], subject: CheckedSubject): string {
  return segments.length === 0 ? subject : formatJsonPath(segments).slice(1).replace(/^\./, '');
}

/** Whether the object schema around a property lists it as required (follows `schemaPath`). */
function isRequiredProperty(rootSchema: unknown, schemaPath: string): boolean {
  const match = /^#(.*)\/properties\/([^/]+)\/type$/.exec(schemaPath);
  if (!match) return false;
  let parent: unknown = rootSchema;
  for (const segment of pointerSegments(match[1] ?? '')) {
    parent = Array.isArray(parent) ? parent[Number(segment)] : ownValue(parent, segment);
  }
  const key = pointerSegments(`/${match[2] ?? ''}`)[0] ?? '';
  const required = ownValue(parent, 'required');
  return Array.isArray(required) && required.includes(key);
}

function mapError(error: ErrorObject, data: unknown, rootSchema: unknown, subject: CheckedSubject, branchHints: string[]): Mapped {
  const segments = instanceSegments(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const got = describeValue(error.data);
  const keyword = error.keyword;
  const label = (s: (string | number)[] = segments) => fieldLabel(s, subject);

  if (keyword === 'required' || keyword === 'dependentRequired') {
    const missing = String(params.missingProperty);
    const at = [...segments, missing];
    const because = keyword === 'dependentRequired' ? ` when ${String(params.property)} is present` : '';
    return { code: 'AXAG_MISSING_PARAM', message: `${label(at)} is required${because}`, segments: at, constraint: { keyword, ...params } };
  }
  if (keyword === 'type') {
    const expected = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type);
    if (error.data === null && isRequiredProperty(rootSchema, error.schemaPath)) {
      return {
        code: 'AXAG_MISSING_PARAM',
        message: `${label()} is required and must be present and non-null (expected ${expected})`,
        segments,
        constraint: { keyword: 'required', type: params.type },
      };
    }
    return {
      code: 'AXAG_INVALID_TYPE',
      message: `${label()} must be ${expected}, got ${got}`,
      segments,
      constraint: { keyword, type: params.type },
    };
  }
  if (RANGE_KEYWORDS.has(keyword)) {
    return {
      code: 'AXAG_OUT_OF_RANGE',
      message: `${label()} must be ${String(params.comparison)} ${String(params.limit)}, got ${got}`,
      segments,
      constraint: { keyword, limit: params.limit, comparison: params.comparison },
    };
  }
  if (keyword === 'enum') {
    const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
    const shown = allowed.slice(0, MAX_ENUM_VALUES);
    const more = allowed.length > shown.length ? `, … (${allowed.length - shown.length} more)` : '';
    return {
      code: 'AXAG_INVALID_ENUM',
      message: `${label()} must be one of ${shown.map(describeValue).join(', ')}${more}; got ${got}`,
      segments,
      constraint: { keyword, allowed: shown, truncated: allowed.length > shown.length },
    };
  }
  if (keyword === 'format') {
    return {
      code: 'AXAG_INVALID_FORMAT',
      message: `${label()} must be a valid ${String(params.format)}, got ${got}`,
      segments,
      constraint: { keyword, format: params.format },
    };
  }
  if (keyword === 'pattern') {
    return {
      code: 'AXAG_PATTERN_MISMATCH',
      message: `${label()} must match the pattern ${describeValue(params.pattern)}, got ${got}`,
      segments,
      constraint: { keyword, pattern: params.pattern },
    };
  }
  if (LENGTH_KEYWORDS.has(keyword)) {
    const bound = keyword.startsWith('min') ? 'at least' : 'at most';
    return {
      code: 'AXAG_INVALID_LENGTH',
      message: `${label()} must have ${bound} ${String(params.limit)} ${LENGTH_UNITS[keyword] ?? 'elements'}`,
      segments,
      constraint: { keyword, limit: params.limit },
    };
  }
  if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
    const extra = String(params.additionalProperty ?? params.unevaluatedProperty);
    const at = [...segments, extra];
    return { code: 'AXAG_UNKNOWN_PARAM', message: `${label(at)} is not a declared parameter`, segments: at, constraint: { keyword } };
  }
  const hint = branchHints.length > 0 ? ` (${branchHints.slice(0, 3).join('; ')})` : '';
  const described: Record<string, string> = {
    const: `${label()} must equal ${describeValue(params.allowedValue)}, got ${got}`,
    multipleOf: `${label()} must be a multiple of ${String(params.multipleOf)}, got ${got}`,
    uniqueItems: `${label()} must not contain duplicate items (items ${String(params.j)} and ${String(params.i)} are equal)`,
    anyOf: `${label()} must match at least one allowed shape${hint}, got ${got}`,
    oneOf: `${label()} must match exactly one allowed shape${hint}, got ${got}`,
    not: `${label()} must not match the excluded shape, got ${got}`,
  };
  return {
    code: 'AXAG_CONSTRAINT_VIOLATION',
    message: described[keyword] ?? `${label()} ${error.message ?? 'violates a constraint'}`,
    segments,
    constraint: { keyword, ...params },
  };
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

export function ajvIssues({ errors, data, schema, intent, subject }: AjvIssuesOptions): ValidationIssue[] {
  if (!errors || errors.length === 0) return [];
  // anyOf/oneOf report every failing branch and then a summary; the branch errors describe
  // shapes the caller never intended, so only the summary is kept, with a short hint.
  const branchRoots = errors.filter((e) => BRANCH_KEYWORDS.has(e.keyword)).map((e) => e.schemaPath);
  const hasOtherThanIf = errors.some((e) => e.keyword !== 'if');
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (issues.length >= MAX_ISSUES_PER_CHECK) break;
    if (branchRoots.some((root) => error.schemaPath.startsWith(`${root}/`))) continue;
    // `if` failing only repeats that its then/else branch failed; those errors are reported.
    if (error.keyword === 'if' && hasOtherThanIf) continue;
    const hints = BRANCH_KEYWORDS.has(error.keyword)
      ? errors
          .filter((e) => e.schemaPath.startsWith(`${error.schemaPath}/`) && e.instancePath === error.instancePath)
          .map((e) => e.message ?? e.keyword)
      : [];
    const mapped = mapError(error, data, schema, subject, hints);
    const code: ErrorCode =
      subject === 'result' ? 'AXAG_OUTPUT_MISMATCH' : subject === 'error' ? 'AXAG_ERROR_SCHEMA_MISMATCH' : mapped.code;
    const constraint = subject === 'arguments' ? mapped.constraint : { ...mapped.constraint, mapped_code: mapped.code };
    issues.push(makeIssue(code, { intent, message: mapped.message, path: formatJsonPath(mapped.segments), constraint }));
  }
  return issues;
}
