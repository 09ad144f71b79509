import type { z } from 'zod';
import { describeValue } from './describe-value.ts';
import { makeIssue, type ErrorCode, type ValidationIssue } from './error-codes.ts';
import { formatJsonPath } from './json-path.ts';

/**
 * Translates Zod issues into the issues the server reports for the same mistakes: same codes,
 * same JSONPaths, messages worded like lib/validation/ajv-issues.ts. A model that learned to
 * read Toolgate's refusals reads the agent's own refusals the same way.
 */

export type CheckedSubject = 'arguments' | 'result';

type Segments = (string | number)[];

interface Mapped {
  code: ErrorCode;
  message: string;
  segments: Segments;
  constraint: Record<string, unknown>;
  /** Overrides the error-code table's generic suggestion. */
  suggestion?: string;
}

const JSON_FORMAT_NAMES: Record<string, string> = { datetime: 'date-time', guid: 'uuid' };
const MAX_ENUM_VALUES = 20;

function toSegments(path: readonly PropertyKey[]): Segments {
  return path.map((segment) => (typeof segment === 'number' || typeof segment === 'string' ? segment : String(segment)));
}

function fieldLabel(segments: Segments, subject: CheckedSubject): string {
  return segments.length === 0 ? subject : formatJsonPath(segments).slice(1).replace(/^\./, '');
}

type AnySchema = z.core.$ZodType;

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let i = 0; i < 32; i += 1) {
    const def = (current as z.core.$ZodTypes)._zod.def;
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly') current = def.innerType;
    else if (def.type === 'lazy') current = def.getter();
    else break;
  }
  return current;
}

/** The schema of the object property at `segments`, or undefined when a union makes it ambiguous. */
function propertySchemaAt(root: AnySchema, segments: Segments): { schema: AnySchema; isProperty: boolean } | undefined {
  let current: AnySchema = root;
  let isProperty = false;
  for (const segment of segments) {
    const def = (unwrap(current) as z.core.$ZodTypes)._zod.def;
    if (def.type === 'object' && typeof segment === 'string') {
      const property = Object.prototype.hasOwnProperty.call(def.shape, segment) ? def.shape[segment] : undefined;
      if (property === undefined) return undefined;
      current = property;
      isProperty = true;
    } else if (def.type === 'array' && typeof segment === 'number') {
      current = def.element;
      isProperty = false;
    } else if (def.type === 'record') {
      current = def.valueType;
      isProperty = false;
    } else {
      return undefined;
    }
  }
  return { schema: current, isProperty };
}

function expectedName(expected: string): string {
  return expected === 'int' ? 'integer' : expected;
}

function mapIssue(issue: z.core.$ZodIssue, base: Segments, subject: CheckedSubject, root: AnySchema | undefined): Mapped[] {
  const segments = [...base, ...toSegments(issue.path)];
  const label = (s: Segments = segments) => fieldLabel(s, subject);
  const got = describeValue(issue.input);

  // A required key sent as null is not provided, whichever check refused the null (an enum, a
  // literal, a union), as on the server (lib/validation/ajv-issues.ts).
  if (issue.input === null && root && issue.code !== 'invalid_type' && issue.path.length > 0) {
    const at = propertySchemaAt(root, segments);
    if (at?.isProperty && at.schema._zod.optin === undefined) {
      return [
        {
          code: 'AXAG_MISSING_PARAM',
          message: `${label()} is required and must be present and non-null`,
          segments,
          constraint: { keyword: 'required', refused_by: issue.code },
        },
      ];
    }
  }

  switch (issue.code) {
    case 'invalid_type': {
      const expected = expectedName(issue.expected);
      if (issue.input === undefined) {
        return [{ code: 'AXAG_MISSING_PARAM', message: `${label()} is required`, segments, constraint: { keyword: 'required' } }];
      }
      if (issue.input === null && root) {
        const at = propertySchemaAt(root, segments);
        if (at?.isProperty && at.schema._zod.optin === undefined) {
          return [
            {
              code: 'AXAG_MISSING_PARAM',
              message: `${label()} is required and must be present and non-null (expected ${expected})`,
              segments,
              constraint: { keyword: 'required', type: expected },
            },
          ];
        }
      }
      return [
        {
          code: 'AXAG_INVALID_TYPE',
          message: `${label()} must be ${expected}, got ${got}`,
          segments,
          constraint: { keyword: 'type', type: expected },
        },
      ];
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = small ? issue.minimum : issue.maximum;
      if (issue.origin === 'string' || issue.origin === 'array') {
        const unit = issue.origin === 'string' ? 'characters' : 'items';
        const bound = issue.exact ? 'exactly' : small ? 'at least' : 'at most';
        const keyword = `${small ? 'min' : 'max'}${issue.origin === 'string' ? 'Length' : 'Items'}`;
        return [
          {
            code: 'AXAG_INVALID_LENGTH',
            message: `${label()} must have ${bound} ${String(limit)} ${unit}`,
            segments,
            constraint: { keyword, limit },
          },
        ];
      }
      const comparison = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const keyword = small ? (issue.inclusive ? 'minimum' : 'exclusiveMinimum') : issue.inclusive ? 'maximum' : 'exclusiveMaximum';
      return [
        {
          code: 'AXAG_OUT_OF_RANGE',
          message: `${label()} must be ${comparison} ${String(limit)}, got ${got}`,
          segments,
          constraint: { keyword, limit, comparison },
        },
      ];
    }
    case 'invalid_format': {
      // Zod reports the regex as "/source/flags"; the contract (and the server) has the source.
      const pattern = issue.pattern?.replace(/^\/(.*)\/[a-z]*$/s, '$1');
      const prefix = describeValue((issue as { prefix?: string }).prefix);
      const suffix = describeValue((issue as { suffix?: string }).suffix);
      const part = describeValue((issue as { includes?: string }).includes);
      // [what the value must do, how to fix it]; the regex case keeps the table's suggestion,
      // which points at details.constraint.pattern.
      const patternLike: Record<string, [string, string | undefined]> = {
        starts_with: [`must start with ${prefix}`, `Send a string starting with ${prefix}.`],
        ends_with: [`must end with ${suffix}`, `Send a string ending with ${suffix}.`],
        includes: [`must contain ${part}`, `Send a string containing ${part}.`],
        lowercase: ['must not contain uppercase letters', 'Send the string in lowercase.'],
        uppercase: ['must not contain lowercase letters', 'Send the string in uppercase.'],
        regex: [`must match the pattern ${describeValue(pattern)}`, undefined],
      };
      const described = patternLike[issue.format];
      if (described !== undefined) {
        const [rule, suggestion] = described;
        return [
          {
            code: 'AXAG_PATTERN_MISMATCH',
            message: `${label()} ${rule}, got ${got}`,
            segments,
            suggestion,
            constraint: { keyword: 'pattern', format: issue.format, ...(pattern ? { pattern } : {}) },
          },
        ];
      }
      const format = JSON_FORMAT_NAMES[issue.format] ?? issue.format;
      return [
        {
          code: 'AXAG_INVALID_FORMAT',
          message: `${label()} must be a valid ${format}, got ${got}`,
          segments,
          constraint: { keyword: 'format', format },
        },
      ];
    }
    case 'not_multiple_of':
      return [
        {
          code: 'AXAG_CONSTRAINT_VIOLATION',
          message: `${label()} must be a multiple of ${issue.divisor}, got ${got}`,
          segments,
          constraint: { keyword: 'multipleOf', multipleOf: issue.divisor },
        },
      ];
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const at = [...segments, key];
        return {
          code: 'AXAG_UNKNOWN_PARAM',
          message: `${label(at)} is not a declared parameter`,
          segments: at,
          constraint: { keyword: 'additionalProperties' },
        };
      });
    case 'invalid_value': {
      if (issue.values.length === 1) {
        return [
          {
            code: 'AXAG_CONSTRAINT_VIOLATION',
            message: `${label()} must equal ${describeValue(issue.values[0])}, got ${got}`,
            segments,
            constraint: { keyword: 'const', allowedValue: issue.values[0] },
          },
        ];
      }
      const shown = issue.values.slice(0, MAX_ENUM_VALUES);
      const more = issue.values.length > shown.length ? `, … (${issue.values.length - shown.length} more)` : '';
      return [
        {
          code: 'AXAG_INVALID_ENUM',
          message: `${label()} must be one of ${shown.map(describeValue).join(', ')}${more}; got ${got}`,
          segments,
          constraint: { keyword: 'enum', allowed: shown, truncated: issue.values.length > shown.length },
        },
      ];
    }
    case 'invalid_union':
      return mapUnion(issue, segments, subject);
    case 'invalid_key':
    case 'invalid_element': {
      // The inner issues describe the key itself; drop their leading "<label> " subject.
      const inner = issue.issues.flatMap((i) => mapIssue(i, [], subject, undefined)).map((m) => m.message.replace(/^\S+ /, ''));
      return [
        {
          code: 'AXAG_CONSTRAINT_VIOLATION',
          message: `${label(base.concat(toSegments(issue.path).slice(0, -1)))} has a key that is not allowed: ${describeValue(issue.input)} ${inner.join('; ')}`,
          segments,
          constraint: { keyword: 'propertyNames' },
        },
      ];
    }
    case 'custom':
      return [{ code: 'AXAG_CONSTRAINT_VIOLATION', message: `${label()}: ${issue.message}`, segments, constraint: { keyword: 'custom' } }];
  }
}

function mapUnion(issue: z.core.$ZodIssueInvalidUnion, segments: Segments, subject: CheckedSubject): Mapped[] {
  const label = fieldLabel(segments, subject);
  const got = describeValue(issue.input);
  if (issue.inclusive === false) {
    return [
      {
        code: 'AXAG_CONSTRAINT_VIOLATION',
        message: `${label} must match exactly one allowed shape, but matches ${issue.matches.length}, got ${got}`,
        segments,
        constraint: { keyword: 'oneOf' },
      },
    ];
  }
  if ('note' in issue && issue.discriminator !== undefined && issue.options) {
    // The path already ends at the discriminator; `input` is still the whole object.
    const input = issue.input as Record<string, unknown> | undefined;
    const value = typeof input === 'object' && input !== null ? input[issue.discriminator] : input;
    const allowed = issue.options;
    return [
      {
        code: 'AXAG_INVALID_ENUM',
        message: `${label} must be one of ${allowed.map(describeValue).join(', ')}; got ${describeValue(value)}`,
        segments,
        constraint: { keyword: 'enum', allowed },
      },
    ];
  }
  // A missing field whose schema is a union still reads "is required", as on the server.
  if (issue.input === undefined) {
    return [{ code: 'AXAG_MISSING_PARAM', message: `${label} is required`, segments, constraint: { keyword: 'required' } }];
  }
  const firsts = issue.errors.map((branch) => branch[0]);
  if (firsts.length > 0 && firsts.every((first) => first?.code === 'invalid_type' && first.path.length === 0)) {
    const expected = firsts.map((first) => expectedName((first as z.core.$ZodIssueInvalidType).expected));
    return [
      {
        code: 'AXAG_INVALID_TYPE',
        message: `${label} must be ${expected.join(' or ')}, got ${got}`,
        segments,
        constraint: { keyword: 'type', type: expected },
      },
    ];
  }
  const hints = issue.errors.slice(0, 3).map((branch, index) => {
    const first = branch[0];
    const mapped = first ? mapIssue(first, segments, subject, undefined)[0] : undefined;
    return `option ${index + 1}: ${mapped?.message ?? 'does not match'}`;
  });
  return [
    {
      code: 'AXAG_CONSTRAINT_VIOLATION',
      message: `${label} must match at least one allowed shape (${hints.join('; ')}), got ${got}`,
      segments,
      constraint: { keyword: 'anyOf' },
    },
  ];
}

export interface ZodIssuesOptions {
  issues: readonly z.core.$ZodIssue[];
  /** The tool's name, as `details.intent`. */
  intent: string;
  subject: CheckedSubject;
  /** The schema that produced the issues; tells a required `null` apart from a wrong type. */
  schema?: z.core.$ZodType;
}

/** At most this many issues per check, like the server. */
export const MAX_ISSUES_PER_CHECK = 50;

export function zodIssues({ issues, intent, subject, schema }: ZodIssuesOptions): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    for (const mapped of mapIssue(issue, [], subject, schema)) {
      if (out.length >= MAX_ISSUES_PER_CHECK) return out;
      // Results get one code for every schema problem, as on the server: the model did not
      // cause them and cannot fix them by changing its arguments.
      const code: ErrorCode = subject === 'result' ? 'AXAG_OUTPUT_MISMATCH' : mapped.code;
      const constraint = subject === 'result' ? { ...mapped.constraint, mapped_code: mapped.code } : mapped.constraint;
      out.push(
        makeIssue(code, {
          intent,
          message: mapped.message,
          path: formatJsonPath(mapped.segments),
          constraint,
          suggestion: subject === 'arguments' ? mapped.suggestion : undefined,
        }),
      );
    }
  }
  return out;
}
