import Ajv2020, { _, type KeywordCxt } from 'ajv/dist/2020.js';
import type { AnySchema, CodeKeywordDefinition, RegExpEngine } from 'ajv/dist/types';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import { countJsonNodes } from '../json';
import { instanceSegments } from '../validation/json-path';
import { addLinearEquality } from './json-equality-keywords';
import { checkPatternSafety } from './pattern-safety';
import { addSchemaCost } from './schema-cost';
import { parsePattern, toNativeSource } from './pattern-syntax';

/**
 * The one Ajv configuration every contract schema is compiled with. Patterns in contracts are
 * written by tool authors and matched against arguments written by models, so both sides are
 * untrusted: regexes run on RE2 (linear time, no backtracking) unless they are proven safe for
 * V8's backtracking `RegExp` and to mean the same there (see compilePattern), and nothing ever
 * loads a remote schema.
 */

/**
 * JSON Schema patterns use ECMAScript syntax; RE2 spells code-point escapes `\x{...}`. Only
 * that difference is translated. Backreferences and lookaround have no RE2 equivalent and are
 * left for RE2 to reject.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char !== '\\') {
      out += char;
      i += 1;
      continue;
    }
    const next = pattern[i + 1] ?? '';
    if (next === 'u') {
      const rest = pattern.slice(i + 2);
      const fixed = /^[0-9a-fA-F]{4}/.exec(rest);
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(rest);
      if (braced) {
        out += `\\x{${braced[1]}}`;
        i += 2 + braced[0].length;
        continue;
      }
      if (fixed) {
        out += `\\x{${fixed[0]}}`;
        i += 6;
        continue;
      }
    }
    out += char + next;
    i += 2;
  }
  return out;
}

export type PatternCheck = { ok: true } | { ok: false; reason: string };

// A schema may repeat one pattern on thousands of properties, and the linter, the guards and
// the arguments' constraints each ask again: RE2's compile of a long pattern is milliseconds, so
// the answers are kept, for patterns short enough that the table stays small.
const checkedPatterns = new Map<string, PatternCheck>();
const CHECKED_PATTERNS_MAX = 4096;
const CHECKED_PATTERN_MAX_LENGTH = 1024;

export function checkPattern(pattern: string): PatternCheck {
  const known = checkedPatterns.get(pattern);
  if (known) return known;
  let check: PatternCheck;
  try {
    RE2JS.compile(toRe2Syntax(pattern));
    check = { ok: true };
  } catch (error) {
    check = { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (pattern.length <= CHECKED_PATTERN_MAX_LENGTH) {
    if (checkedPatterns.size >= CHECKED_PATTERNS_MAX) checkedPatterns.clear();
    checkedPatterns.set(pattern, check);
  }
  return check;
}

export type PatternEngine = 'native' | 're2';
export type PatternMatcher = { engine: PatternEngine; test: (input: string) => boolean };

/**
 * The native `RegExp` for a pattern, or `null` when the pattern must stay on RE2: it uses syntax
 * whose meaning is not certain in both engines (pattern-syntax.ts), or it is not proven to run
 * in linear time on a backtracking engine (pattern-safety.ts).
 */
export function nativeRegExp(pattern: string): RegExp | null {
  const tree = parsePattern(pattern);
  if (tree === null || !checkPatternSafety(tree).safe) return null;
  try {
    return new RegExp(toNativeSource(tree), 'u');
  } catch {
    return null;
  }
}

/**
 * Compiles a contract pattern. RE2 compiles it first in every case, so what is refused (and
 * with which message) does not depend on the engine that then runs it. A native match that
 * throws (V8's backtracking stack has a limit, reached only by inputs of millions of
 * characters) is answered by RE2.
 */
export function compilePattern(pattern: string): PatternMatcher {
  const re2 = RE2JS.compile(toRe2Syntax(pattern));
  const native = nativeRegExp(pattern);
  if (native === null) return { engine: 're2', test: (input) => re2.test(input) };
  return {
    engine: 'native',
    test: (input) => {
      try {
        return native.test(input);
      } catch {
        return re2.test(input);
      }
    },
  };
}

type ContractRegExp = { test: (input: string) => boolean; toString(): string };

/**
 * Ajv's `code.regExp` hook, one per Ajv instance (one schema). Ajv asks it for every occurrence
 * of a pattern and only then looks the result up under `String(regex)`, so a schema repeating one
 * pattern on 3,000 properties compiled it 3,000 times (5 s of a 256 KiB contract's compile):
 * each instance keeps what it compiled. `code` only matters for standalone code, unused here.
 */
export function createContractRegExpEngine(): RegExpEngine {
  const compiled = new Map<string, ContractRegExp>();
  const contractPattern = (pattern: string, flags: string): ContractRegExp => {
    const key = `/${pattern}/${flags}`;
    let regExp = compiled.get(key);
    if (!regExp) {
      const { test } = compilePattern(pattern);
      // Ajv caches compiled patterns under `String(regex)`. Without a per-pattern key every
      // pattern in an Ajv instance would share the first one's matcher (the meta-schema's).
      regExp = { test, toString: () => key };
      compiled.set(key, regExp);
    }
    return regExp;
  };
  return Object.assign(contractPattern, { code: 'contractPattern' });
}

/** Code points in a string, as Ajv's `ucs2length` counts them (a lone surrogate is one). */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count += 1;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
  }
  return count;
}

/**
 * `minLength` and `maxLength` count code points, as Ajv does, but only when the UTF-16 length
 * leaves the answer open: a string of `n` code units has between ceil(n / 2) and n code points
 * (each is one unit or a surrogate pair), so the count is needed only when the limit lies in
 * between. Same keyword, same place in Ajv's keyword order, same error.
 */
function lengthCode(cxt: KeywordCxt): void {
  const { keyword, data, schemaCode, gen } = cxt;
  const count = gen.scopeValue('func', { ref: countCodePoints });
  const units = _`${data}.length`;
  const fewest = _`((${units} + 1) >> 1)`;
  cxt.fail$data(
    keyword === 'maxLength'
      ? _`${units} > ${schemaCode} && (${fewest} > ${schemaCode} || ${count}(${data}) > ${schemaCode})`
      : _`${units} < ${schemaCode} || (${fewest} < ${schemaCode} && ${count}(${data}) < ${schemaCode})`,
  );
}

function addLengthFastPath(ajv: Ajv2020): void {
  for (const keyword of ['maxLength', 'minLength']) {
    const definition = ajv.getKeyword(keyword);
    if (typeof definition !== 'object') throw new Error(`Ajv has no ${keyword} keyword to adjust`);
    (definition as CodeKeywordDefinition).code = lengthCode;
  }
}

const AJV_OPTIONS = {
  allErrors: true,
  // Contracts come from many authors; unknown keywords are ignored rather than fatal.
  strict: false,
  // Issue messages quote the offending value and read the failing schema.
  verbose: true,
  // `$data` turns schema constraints into data-controlled ones; contracts must be static.
  $data: false,
  // Presence (`required`, `dependentRequired`), `properties` and the key loops read own keys
  // only: otherwise `{}` has a `constructor` and a `toString` (Object.prototype's), and a
  // contract requiring them accepts it.
  ownProperties: true,
  // A schema it fails to compile is answered as a problem; Ajv would also print the whole
  // generated code (megabytes for a large schema) to the server's log.
  logger: false,
  // Ajv copies a referenced schema without references of its own into every place that names
  // it: one definition of 1,000 properties named from 1,000 places is a million checks of
  // generated code (a 68 KB contract took the process out of memory). Each is compiled once and
  // called instead.
  inlineRefs: false,
} as const;

function newAjv(validateSchema: boolean, optimize = true): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { regExp: createContractRegExpEngine(), optimize }, validateSchema });
  addFormats(ajv);
  addLengthFastPath(ajv);
  addLinearEquality(ajv);
  addSchemaCost(ajv);
  return ajv;
}

/**
 * An Ajv with the contract configuration and Ajv's own optimizer and evaluated-property tracking,
 * the instance contracts were compiled with before compileContractSchema (bench:contract-compile
 * compares the two). Contracts compile through compileContractSchema.
 */
export function createContractAjv(): Ajv2020 {
  return newAjv(false);
}

/**
 * Past this many objects and arrays a schema is compiled without Ajv's code optimizer: its
 * passes re-add every generated name at every level (quadratic): 1-3 s of a 256 KiB contract of
 * 4,000 properties, on the one thread that also answers the gate. Contracts of the usual size
 * keep the optimized code the in-process check was measured on.
 */
export const OPTIMIZED_SCHEMA_MAX_NODES = 1_000;

export const SCHEMA_TOO_DEEP_MESSAGE =
  'The schema nests its checks too deeply to compile (thousands of anyOf or oneOf alternatives); split it into smaller schemas or use enum.';

/**
 * A contract schema's validator, from a fresh Ajv per schema: contract schemas may carry their own
 * `$id`s, and two contracts (or a contract's input and output) using the same `$id` must not
 * collide in a shared registry. Meta-schema validation is left to `checkSchemaAgainstMeta`
 * (compiling the 2020-12 meta-schema costs ~100 ms per instance). Ajv 2020 tracks
 * which properties and items each subschema evaluated, for `unevaluatedProperties` and
 * `unevaluatedItems` only, and merges that record by copying it at every `allOf` member
 * (quadratic: 4 s for 3,000 members); a schema that cannot hold those keywords (its text never
 * names them) is compiled without the tracking.
 */
export function compileContractSchema(schema: unknown): ValidateFunction {
  const ajv = newAjv(false, countJsonNodes(schema, OPTIMIZED_SCHEMA_MAX_NODES) <= OPTIMIZED_SCHEMA_MAX_NODES);
  if (!JSON.stringify(schema).includes('"unevaluated')) (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
  try {
    return ajv.compile(schema as AnySchema);
  } catch (error) {
    // Thousands of anyOf or oneOf alternatives nest their generated checks as deep, past what
    // the stack holds to build or parse them.
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw new Error(SCHEMA_TOO_DEEP_MESSAGE);
    throw error;
  }
}

let formatNames: ReadonlySet<string> | undefined;

/**
 * Whether contract schemas check this `format`. Ajv ignores a format it does not know (with a
 * console warning), so `"format": "emial"` would check nothing; the linter refuses it.
 */
export function isKnownFormat(name: string): boolean {
  formatNames ??= new Set(Object.keys(newAjv(false).formats));
  return formatNames.has(name);
}

let metaValidator: Ajv2020 | undefined;

/**
 * Validates a schema against the 2020-12 meta-schema with one long-lived, read-only instance.
 * `at` is where in the schema the first problem is (path segments, e.g. `['properties', 'name',
 * 'maxLength']`), so a finding can be placed on the offending keyword rather than the whole schema.
 */
export function checkSchemaAgainstMeta(schema: unknown): { ok: true } | { ok: false; message: string; at: (string | number)[] } {
  metaValidator ??= newAjv(true);
  // Ajv validates against the meta-schema `$schema` names and throws when it does not know it
  // (draft-07 and older are not loaded): that is the author's mistake, reported, not a crash.
  const declared = schema !== null && typeof schema === 'object' ? (schema as { $schema?: unknown }).$schema : undefined;
  if (declared !== undefined && (typeof declared !== 'string' || !metaValidator.getSchema(declared))) {
    return {
      ok: false,
      message: `schema is invalid: $schema must be https://json-schema.org/draft/2020-12/schema or absent, got ${JSON.stringify(declared).slice(0, 100)}`,
      at: ['$schema'],
    };
  }
  const valid = metaValidator.validateSchema(schema as object);
  if (valid === true) return { ok: true };
  const first = metaValidator.errors?.[0]?.instancePath ?? '';
  return {
    ok: false,
    message: `schema is invalid: ${metaValidator.errorsText(metaValidator.errors, { dataVar: 'schema' })}`,
    at: instanceSegments(schema, first),
  };
}
