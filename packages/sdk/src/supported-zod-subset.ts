import { z } from 'zod';

/**
 * The Zod constructs a tool schema may use. A tool's arguments are checked twice: by Zod in
 * the agent, and by Ajv on the server against the contract generated from the same schema.
 * Both must accept and reject the same values (agreement.test.ts checks it), so any
 * construct whose meaning JSON Schema cannot carry, or that Ajv reads differently from Zod, is
 * refused here with the reason and what to write instead.
 */

export interface SchemaProblem {
  /** Where in the schema, e.g. `input.items[].sku`. */
  path: string;
  message: string;
}

export class UnsupportedSchemaError extends Error {
  readonly problems: SchemaProblem[];

  constructor(subject: string, problems: SchemaProblem[]) {
    super(`${subject} uses Zod features outside the supported subset:\n${problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'UnsupportedSchemaError';
    this.problems = problems;
  }
}

/**
 * String formats whose Zod check Ajv reproduces exactly (with the pattern Zod emits). `url`,
 * `emoji`, `ipv6` and the id formats are missing on purpose: Zod checks `url` with the WHATWG
 * URL parser and Ajv with an RFC 3986 regex, and the others either use lookaround (which the
 * server's RE2 engine rejects) or were not verified.
 */
export const SUPPORTED_STRING_FORMATS = [
  'email',
  'uuid',
  'guid',
  'date',
  'datetime',
  'time',
  'ipv4',
  'regex',
  'starts_with',
  'ends_with',
  'includes',
  'lowercase',
  'uppercase',
] as const;

const SUPPORTED_FORMATS: ReadonlySet<string> = new Set(SUPPORTED_STRING_FORMATS);

const NOT_JSON: Record<string, string> = {
  date: 'z.date() checks JavaScript Date objects, which JSON arguments never are; use z.iso.date() (YYYY-MM-DD) or z.iso.datetime() instead',
  bigint: 'JSON has no bigint; use z.number().int() or a digit string',
  symbol: 'symbols cannot be sent as JSON',
  undefined: 'undefined cannot be sent as JSON; use .optional() on an object property',
  void: 'void cannot be sent as JSON',
  nan: 'NaN cannot be sent as JSON',
  map: 'Maps cannot be sent as JSON; use z.record()',
  set: 'Sets cannot be sent as JSON; use z.array()',
  file: 'files cannot be sent as JSON arguments',
  promise: 'promises cannot be sent as JSON',
  function: 'functions cannot be sent as JSON',
  custom: 'z.custom()/z.instanceof() run code JSON Schema cannot express',
  pipe: 'pipes and transforms (including z.stringbool() and codecs) run only in the agent: the server checks the value as sent, before the transform; convert in execute() instead',
  transform: 'transforms run only in the agent: the server checks the value as sent; convert in execute() instead',
  catch: '.catch() turns invalid values into a fallback locally, so the tool would accept what the server refuses',
  prefault: '.prefault() parses its value through the schema; use .default()',
  nonoptional: '.nonoptional() is not in the supported subset',
  success: 'z.success() is not in the supported subset',
  template_literal: 'template literals are not in the supported subset; use z.string().regex()',
};

/**
 * Regex syntax JavaScript and the server's RE2 engine read differently, or that RE2 rejects.
 * Without the `u` flag JavaScript also counts UTF-16 units where RE2 counts code points; that
 * only matters for characters outside the Basic Multilingual Plane (see docs/sdk.md).
 */
export function regexProblem(pattern: RegExp): string | null {
  if (pattern.flags !== '' && pattern.flags !== 'u') {
    return `regex flags "${pattern.flags}" are lost in JSON Schema (only "u" is allowed); spell case-insensitivity as [Aa] classes`;
  }
  const source = pattern.source;
  try {
    // JSON Schema patterns are ECMAScript regexes with the `u` flag (Ajv's meta-schema checks
    // them that way), so `\-` outside a class or `\_` would make the contract invalid.
    new RegExp(source, 'u');
  } catch {
    return 'the pattern is not valid with the u flag, which JSON Schema patterns use; remove needless escapes such as \\- outside classes';
  }
  // Without `u`, JavaScript matches UTF-16 units and RE2 whole characters, so a negated class
  // could take half an emoji in one engine and the whole emoji in the other.
  const unitsMatter = !pattern.flags.includes('u');
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      if ('sS'.includes(next))
        return `\\${next} matches different whitespace in JavaScript and RE2; list the characters, e.g. [ \\t\\n\\r]`;
      if ('pP'.includes(next)) return `\\${next}{...} Unicode classes are not supported`;
      if (unitsMatter && 'WD'.includes(next))
        return `\\${next} without the u flag can match half of an emoji in JavaScript; add the u flag`;
      if (/[1-9k]/.test(next)) return "backreferences cannot run on the server's RE2 engine";
      i += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      if (unitsMatter && source[i + 1] === '^')
        return 'a negated class without the u flag can match half of an emoji in JavaScript; add the u flag';
    } else if (char === '.')
      return '"." matches \\r and \\u2028 on the server\'s RE2 engine but not in JavaScript; use an explicit class such as [^\\n\\r] (with the u flag)';
    else if (char === '(' && /^\(\?<?[=!]/.test(source.slice(i))) return "lookaround cannot run on the server's RE2 engine";
  }
  return null;
}

/**
 * Zod calls v a multiple of m when v/m is within 4·ε·|v/m| of an integer; Ajv wants v/m to be
 * an integer exactly. For integers v and m a non-multiple's quotient is at least 1/m off, which
 * Zod's tolerance only swallows once |v| > 1/(4ε) ≈ 1.1e15, so below that bound they agree.
 */
export const MULTIPLE_OF_LIMIT = 2 ** 50;

function exactMultipleOf(def: z.core.$ZodTypeDef & { format?: string }, step: unknown): boolean {
  if (typeof step !== 'number' || !Number.isInteger(step)) return false;
  let isInt = typeof def.format === 'string' && def.format.includes('int');
  let low = def.format === 'int32' ? -(2 ** 31) : def.format === 'uint32' ? 0 : -Infinity;
  let high = def.format === 'int32' ? 2 ** 31 : def.format === 'uint32' ? 2 ** 32 : Infinity;
  for (const check of def.checks ?? []) {
    const c = check._zod.def as { check: string; format?: string; value?: unknown };
    if (c.check === 'number_format' && c.format?.includes('int')) isInt = true;
    if (c.check === 'greater_than' && typeof c.value === 'number') low = Math.max(low, c.value);
    if (c.check === 'less_than' && typeof c.value === 'number') high = Math.min(high, c.value);
  }
  return isInt && low >= -MULTIPLE_OF_LIMIT && high <= MULTIPLE_OF_LIMIT;
}

// z.email({pattern}) takes any regex; the server runs it on RE2 as the contract's pattern.
function auditEmailPattern(def: { format?: string; pattern?: RegExp }, push: (message: string) => void): void {
  if (def.format !== 'email' || !(def.pattern instanceof RegExp)) return;
  const problem = regexProblem(def.pattern);
  if (problem) push(`email pattern /${def.pattern.source}/: ${problem}`);
}

type Segment = string;

function display(root: string, segments: Segment[]): string {
  return segments.reduce((path, segment) => (segment.startsWith('[') ? `${path}${segment}` : `${path}.${segment}`), root);
}

function checkProblems(schema: z.core.$ZodType, push: (message: string) => void): void {
  const def = schema._zod.def as z.core.$ZodTypeDef & { coerce?: boolean; format?: string; pattern?: RegExp; type: string };
  if (def.coerce) push('z.coerce.* converts values locally (e.g. "5" to 5) that the server checks as sent; use the plain type');
  // Format schemas such as z.email() carry their format on the schema itself, not as a check.
  if (def.type === 'string' && typeof def.format === 'string') {
    if (!SUPPORTED_FORMATS.has(def.format)) {
      push(
        `the "${def.format}" string format is not in the supported subset (its server-side check differs from Zod's); use z.string().regex() with an explicit pattern`,
      );
    }
    auditEmailPattern(def, push);
  }
  for (const check of def.checks ?? []) {
    const c = check._zod.def as z.core.$ZodCheckDef & { check: string; format?: string; pattern?: RegExp; value?: unknown };
    auditEmailPattern(c, push);
    switch (c.check) {
      case 'min_length':
      case 'max_length':
      case 'length_equals':
      case 'greater_than':
      case 'less_than':
      case 'number_format':
        break;
      case 'multiple_of':
        if (!exactMultipleOf(def, c.value)) {
          push(
            `multipleOf agrees between Zod (which tolerates rounding error relative to the value's size) and Ajv (exact) only for an integer step on integers within ±${MULTIPLE_OF_LIMIT}; use z.number().int().min(..).max(..) inside those bounds and an integer step (scale decimals, e.g. to cents)`,
          );
        }
        break;
      case 'string_format':
        if (c.format === undefined || !SUPPORTED_FORMATS.has(c.format)) {
          push(
            `the "${c.format ?? '?'}" string format is not in the supported subset (its server-side check differs from Zod's); use z.string().regex() with an explicit pattern`,
          );
        } else if (c.format === 'regex' && c.pattern instanceof RegExp) {
          const problem = regexProblem(c.pattern);
          if (problem) push(`pattern /${c.pattern.source}/: ${problem}`);
        }
        break;
      case 'overwrite':
        push(
          '.trim(), .toLowerCase() and other overwrites change the value before later checks, but the server checks it as sent; normalise in execute() instead',
        );
        break;
      case 'custom':
        push(
          'refinements (.refine(), .superRefine(), .check()) run only in the agent; state the rule as a contract precondition (CEL) in `contract.preconditions`, or drop it',
        );
        break;
      default:
        push(`the "${c.check}" check is not in the supported subset`);
    }
  }
}

/** Every construct of `schema` outside the supported subset; empty when the schema is fine. */
export function findUnsupportedConstructs(schema: z.core.$ZodType, root = 'schema'): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<z.core.$ZodType>();

  const visit = (node: z.core.$ZodType, segments: Segment[]): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const push = (message: string) => problems.push({ path: display(root, segments), message });
    checkProblems(node, push);
    const typed = node as z.core.$ZodTypes;
    const def = typed._zod.def;
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
      case 'any':
      case 'unknown':
      case 'never':
      case 'enum':
        return;
      case 'literal':
        for (const value of def.values) {
          if (typeof value === 'bigint' || value === undefined) push(`the literal ${String(value)} cannot be sent as JSON`);
        }
        return;
      case 'object':
        for (const [key, property] of Object.entries(def.shape)) visit(property, [...segments, key]);
        if (def.catchall) visit(def.catchall, [...segments, '[*]']);
        return;
      case 'array':
        visit(def.element, [...segments, '[]']);
        return;
      case 'tuple':
        def.items.forEach((item, index) => visit(item, [...segments, `[${index}]`]));
        if (def.rest) visit(def.rest, [...segments, '[...]']);
        return;
      case 'record': {
        if (def.mode === 'loose')
          push('z.looseRecord() lets keys that fail the key schema through, which JSON Schema cannot say; use z.record()');
        const keyType = (def.keyType as z.core.$ZodTypes)._zod.def.type;
        if (keyType !== 'string' && keyType !== 'enum' && keyType !== 'literal') push('record keys must be strings, enums or literals');
        visit(def.keyType, [...segments, '{key}']);
        visit(def.valueType, [...segments, '[*]']);
        return;
      }
      case 'union':
        def.options.forEach((option, index) => visit(option, [...segments, `<option ${index + 1}>`]));
        return;
      case 'intersection':
        visit(def.left, segments);
        visit(def.right, segments);
        return;
      case 'optional':
      case 'nullable':
      case 'readonly':
        visit(def.innerType, segments);
        return;
      case 'default': {
        // The agent sends the parsed arguments (defaults filled in) to the server, so a
        // default the schema itself rejects would turn a valid call into a refused one.
        const checked = z.safeParse(def.innerType, def.defaultValue);
        if (!checked.success) push(`the default ${JSON.stringify(def.defaultValue)} does not satisfy its own schema`);
        visit(def.innerType, segments);
        return;
      }
      case 'lazy':
        visit(def.getter(), segments);
        return;
      default:
        push(NOT_JSON[def.type] ?? `${def.type} is not in the supported subset`);
    }
  };

  visit(schema, []);
  return problems;
}

/** Throws UnsupportedSchemaError naming `owner` (e.g. `Tool "create-user"`) and every problem. */
export function assertSupportedSchema(schema: z.core.$ZodType, root: string, owner: string): void {
  const problems = findUnsupportedConstructs(schema, root);
  if (problems.length > 0) throw new UnsupportedSchemaError(`${owner}: the ${root} schema`, problems);
}
