// Turns untrusted JSON into a new PascalCase object the rules can read, without touching the
// input. Only own properties are read, only keys that are field names of context-fields.ts are
// used (so `__proto__` and `constructor` keys stay inert data), and the output is built from
// those fixed names, so nothing is ever assigned through a prototype. Recursion follows the field
// table, never the input; opaque values are referenced, not copied, and never written to.
import { camelCaseOf, PIPELINE_CONTEXT_FIELDS, TOOL_CALL_MANIFEST_FIELDS, type FieldMap, type FieldSpec } from './context-fields';
import type { IssueSink } from './issue-sink';
import { SHAPE_RULE } from './shape-rules';
import type { PipelineContext, ToolCallManifest } from './types';
import { isJsonObject } from '../json';

/** The normalized form: every field optional, mistyped values and nulls dropped. */
export type Loose<T> = T extends readonly (infer U)[]
  ? (Loose<U> | undefined)[]
  : T extends object
    ? { [K in keyof T]?: Loose<Exclude<T[K], null>> }
    : T;

export type NormalizedContext = Loose<PipelineContext>;
export type NormalizedManifest = Loose<ToolCallManifest>;

// Deep enough for any real context; shallow enough that comparing hostile input cannot exhaust
// the stack.
export const MAX_COMPARE_DEPTH = 64;

// Object.hasOwn is not inlined by Node 20's optimizer; this form is, and the PRE == POST
// comparison calls it for every key it compares.
const hasOwnProperty = Object.prototype.hasOwnProperty;
function hasOwn(obj: object, key: string): boolean {
  return hasOwnProperty.call(obj, key);
}

/** A field under either spelling; PascalCase wins when both are present. */
function readField(obj: Record<string, unknown>, pascal: string): unknown {
  if (hasOwn(obj, pascal)) return obj[pascal];
  const camel = camelCaseOf(pascal);
  return hasOwn(obj, camel) ? obj[camel] : undefined;
}

/** Reads a PascalCase path (`['Envelope', 'Org']`) through either spelling at every level. */
function readSegments(root: unknown, segments: readonly string[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (!isJsonObject(current)) return undefined;
    current = readField(current, segment);
  }
  return current;
}

// The invariant comparison resolves the same few paths on every ResponseBuilder POST; callers
// pass fixed paths only, so the cache stays as small as that list.
const resolvedPaths = new Map<string, { segments: string[]; spec: FieldSpec | undefined }>();

function resolvePath(dotted: string): { segments: string[]; spec: FieldSpec | undefined } {
  let resolved = resolvedPaths.get(dotted);
  if (!resolved) {
    const segments = dotted.split('.');
    let spec: FieldSpec | undefined;
    let fields: FieldMap | undefined = PIPELINE_CONTEXT_FIELDS;
    for (const segment of segments) {
      spec = fields?.[segment];
      fields = spec?.kind === 'object' ? spec.fields : undefined;
    }
    resolved = { segments, spec };
    resolvedPaths.set(dotted, resolved);
  }
  return resolved;
}

/**
 * The value at a dotted PascalCase path in a spelling-independent form, for comparing two
 * snapshots: the known fields inside it are read under either spelling and keyed in PascalCase
 * (nulls dropped); opaque values are returned as they are.
 */
export function canonicalFieldPath(root: unknown, dotted: string): unknown {
  const { segments, spec } = resolvePath(dotted);
  const value = readSegments(root, segments);
  return spec ? canonical(value, spec) : value;
}

function canonical(value: unknown, spec: FieldSpec): unknown {
  if (spec.kind === 'object' && spec.fields && isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [pascal, inner] of Object.entries(spec.fields)) {
      const field = readField(value, pascal);
      if (field !== undefined && field !== null) out[pascal] = canonical(field, inner);
    }
    return out;
  }
  const items = spec.kind === 'array' ? spec.items : undefined;
  if (items && Array.isArray(value)) return value.map((item: unknown) => canonical(item, items));
  return value;
}

export type Comparison = 'equal' | 'different' | 'too_deep';

/** Structural equality of JSON values (key order ignored), bounded to MAX_COMPARE_DEPTH levels. */
export function compareJson(a: unknown, b: unknown, depth = 0): Comparison {
  if (a === b) return 'equal';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return 'different';
  if (Array.isArray(a) !== Array.isArray(b)) return 'different';
  if (depth >= MAX_COMPARE_DEPTH) return 'too_deep';
  // A definite difference anywhere outranks "too deep" somewhere else.
  let tooDeep = false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return 'different';
    for (let i = 0; i < a.length; i++) {
      const result = compareJson(a[i], b[i], depth + 1);
      if (result === 'different') return result;
      if (result === 'too_deep') tooDeep = true;
    }
  } else {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return 'different';
    for (const key of keys) {
      if (!hasOwn(right, key)) return 'different';
      const result = compareJson(left[key], right[key], depth + 1);
      if (result === 'different') return result;
      if (result === 'too_deep') tooDeep = true;
    }
  }
  return tooDeep ? 'too_deep' : 'equal';
}

export function normalizeContext(input: Record<string, unknown>, sink: IssueSink): NormalizedContext {
  return normalizeObject(input, PIPELINE_CONTEXT_FIELDS, '$', sink) as NormalizedContext;
}

export function normalizeManifest(input: Record<string, unknown>, sink: IssueSink): NormalizedManifest {
  return normalizeObject(input, TOOL_CALL_MANIFEST_FIELDS, '$', sink) as NormalizedManifest;
}

export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

interface CompiledTable {
  entries: { pascal: string; camel: string; spec: FieldSpec }[];
  /** Field name -> entry index; a camelCase name maps to the bitwise complement of the index. */
  slots: Map<string, number>;
}

const compiledTables = new WeakMap<FieldMap, CompiledTable>();

function compiled(fields: FieldMap): CompiledTable {
  let table = compiledTables.get(fields);
  if (!table) {
    const entries = Object.entries(fields).map(([pascal, spec]) => ({ pascal, camel: camelCaseOf(pascal), spec }));
    const slots = new Map<string, number>();
    entries.forEach(({ pascal, camel }, index) => slots.set(camel, ~index).set(pascal, index));
    table = { entries, slots };
    compiledTables.set(fields, table);
  }
  return table;
}

// Walks the input's own keys once and files them by field, rather than probing every field
// under both spellings: most of the cost of a validator call is here, and a context holds far
// fewer keys than the table has spellings. Output and issues still follow the table's order.
function normalizeObject(input: Record<string, unknown>, fields: FieldMap, path: string, sink: IssueSink): Record<string, unknown> {
  const { entries, slots } = compiled(fields);
  const pascalValues: unknown[] = new Array(entries.length);
  let camelValues: unknown[] | undefined;
  for (const key of Object.keys(input)) {
    const slot = slots.get(key);
    if (slot === undefined) continue;
    if (slot >= 0) pascalValues[slot] = input[key];
    else (camelValues ??= new Array(entries.length))[~slot] = input[key];
  }
  const out: Record<string, unknown> = {};
  for (let index = 0; index < entries.length; index++) {
    const { pascal, camel, spec } = entries[index] as CompiledTable['entries'][number];
    const pascalValue = pascalValues[index];
    const camelValue = camelValues?.[index];
    if (pascalValue !== undefined && camelValue !== undefined)
      reportAmbiguity(pascalValue, camelValue, pascal, camel, `${path}.${pascal}`, sink);
    const raw = pascalValue !== undefined ? pascalValue : camelValue;
    if (raw === undefined || raw === null) continue;
    const value = normalizeValue(raw, spec, path, pascal, sink);
    if (value !== undefined) out[pascal] = value;
  }
  return out;
}

function reportAmbiguity(pascalValue: unknown, camelValue: unknown, pascal: string, camel: string, path: string, sink: IssueSink): void {
  const comparison = compareJson(pascalValue, camelValue);
  if (comparison === 'different') {
    sink.add(SHAPE_RULE.AMBIGUOUS_FIELD.id, {
      message: `${pascal} and ${camel} are both present with different values; the ${pascal} value is used`,
      path,
      details: { field: pascal, alias: camel },
    });
  } else if (comparison === 'too_deep') {
    sink.add(SHAPE_RULE.TOO_DEEP.id, {
      message: `${pascal} and ${camel} are both present and nest too deeply to compare (limit ${MAX_COMPARE_DEPTH} levels)`,
      path,
      details: { field: pascal, alias: camel, limit: MAX_COMPARE_DEPTH },
    });
  }
}

// Paths are built only for values that need one (mistyped, or objects to descend into): most
// fields of a valid context never turn into a string.
function childPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`;
}

/** `key` is a field name or an array index under `parent`. */
function normalizeValue(raw: unknown, spec: FieldSpec, parent: string, key: string | number, sink: IssueSink): unknown {
  switch (spec.kind) {
    case 'string':
      return typeof raw === 'string' ? raw : mistyped(raw, 'a string', childPath(parent, key), sink);
    case 'boolean':
      return typeof raw === 'boolean' ? raw : mistyped(raw, 'a boolean', childPath(parent, key), sink);
    case 'entity':
      return typeof raw === 'string' || isJsonObject(raw) ? raw : mistyped(raw, 'a string or an object', childPath(parent, key), sink);
    case 'object':
      if (!isJsonObject(raw)) return mistyped(raw, 'an object', childPath(parent, key), sink);
      return spec.fields ? normalizeObject(raw, spec.fields, childPath(parent, key), sink) : raw;
    case 'array': {
      if (!Array.isArray(raw)) return mistyped(raw, 'an array', childPath(parent, key), sink);
      const items = spec.items;
      if (!items?.fields) return raw;
      const arrayPath = childPath(parent, key);
      const out: unknown[] = new Array(raw.length);
      for (let index = 0; index < raw.length; index++) out[index] = normalizeValue(raw[index], items, arrayPath, index, sink);
      return out;
    }
  }
}

function mistyped(raw: unknown, expected: string, path: string, sink: IssueSink): undefined {
  const field = path.slice(2);
  sink.invalid({
    message: `${field} must be ${expected}, got ${jsonTypeOf(raw)}`,
    path,
    details: { expected, actual: jsonTypeOf(raw) },
  });
  return undefined;
}
