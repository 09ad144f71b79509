import { canonicalJson } from '../contracts/canonical-json-core';
import { childPath, isObject, jsonEqual, own, show, type DriftFindings } from './drift-findings';

/**
 * Which way a JSON Schema changed: widened (accepts values it refused) or narrowed (refuses
 * values it accepted), keyword by keyword, recursing into subschemas. A change whose direction
 * cannot be told here (a new `$ref`, a changed `pattern`, an unknown keyword) is reported as
 * both, since a reviewer must look at it either way. Schemas come from upstream servers, so the
 * walk is bounded in depth and in subschemas compared; past either bound a subtree that differs
 * is reported as both.
 *
 * Properties follow what a tool's caller sees: a new property is a widening (the tool takes an
 * input it did not), a removed one a narrowing, whatever `additionalProperties` says.
 */

export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_NODES = 10_000;

type Direction = 'widened' | 'narrowed' | 'both';

interface Walk {
  sink: DriftFindings;
  nodes: number;
}

/** Reports into `sink` how `after` differs from `before`; absent means `true` (anything). */
export function compareSchemas(before: unknown, after: unknown, path: string, sink: DriftFindings): void {
  compare(before, after, path, 0, false, { sink, nodes: 0 });
}

// Annotations: what changes in them is wording, which only counts when nothing else changed.
const WORDING = new Set(['title', 'description', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly']);
// Subschemas where absent is the same as `true`.
const OPEN_SUBSCHEMAS = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'propertyNames',
  'then',
  'else',
  'contentSchema',
]);
const CONSTRAINT_STRINGS = new Set(['pattern', 'format', 'contentMediaType', 'contentEncoding']);
const LOWER_COUNTS = new Set(['minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER_COUNTS = new Set(['maxLength', 'maxItems', 'maxProperties', 'maxContains']);
// Entries added, entries removed: which way each list keyword moves.
const LISTS: Record<string, [Direction, Direction]> = {
  allOf: ['narrowed', 'widened'],
  anyOf: ['widened', 'narrowed'],
  oneOf: ['both', 'both'],
  prefixItems: ['both', 'both'],
};
const MAPS: Record<string, [Direction, Direction, string]> = {
  properties: ['widened', 'narrowed', 'Property'],
  patternProperties: ['both', 'both', 'Pattern property'],
  dependentSchemas: ['narrowed', 'widened', 'Dependent schema for'],
  $defs: ['both', 'both', 'Definition'],
  definitions: ['both', 'both', 'Definition'],
};

function showOr(value: unknown): string {
  return value === undefined ? 'none' : show(value);
}

function report(w: Walk, flip: boolean, direction: Direction, path: string, message: string): void {
  if (direction === 'both') return w.sink.both(path, message);
  const actual = flip ? (direction === 'widened' ? 'narrowed' : 'widened') : direction;
  const note = flip ? ' (inside `not`, so the other way)' : '';
  w.sink.add(actual === 'widened' ? 'schema_widened' : 'schema_narrowed', path, message + note);
}

function compare(a: unknown, b: unknown, path: string, depth: number, flip: boolean, w: Walk): void {
  if (a === b || jsonEqual(a, b)) return;
  w.nodes += 1;
  if (depth > MAX_SCHEMA_DEPTH || w.nodes > MAX_SCHEMA_NODES) {
    const why =
      depth > MAX_SCHEMA_DEPTH ? `nested deeper than ${MAX_SCHEMA_DEPTH} levels` : `past the first ${MAX_SCHEMA_NODES} subschemas`;
    return w.sink.both(path, `Changed ${why}; not compared further.`);
  }
  const x = a === undefined || a === true ? {} : a;
  const y = b === undefined || b === true ? {} : b;
  if (x === false || y === false) {
    if (x === false && y === false) return;
    const message = x === false ? 'The schema accepted nothing (false); now it accepts values.' : 'The schema now accepts nothing (false).';
    return report(w, flip, x === false ? 'widened' : 'narrowed', path, message);
  }
  if (!isObject(x) || !isObject(y)) return w.sink.both(path, 'Not a schema object, and changed.');
  compareKeywords(x, y, path, depth, flip, w);
}

function compareKeywords(
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  path: string,
  depth: number,
  flip: boolean,
  w: Walk,
): void {
  const done = new Set<string>();
  for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
    const before = own(x, key);
    const after = own(y, key);
    if (jsonEqual(before, after)) continue;
    const at = childPath(path, key);
    if (WORDING.has(key)) w.sink.wordingChanged(at, `The ${key} changed.`);
    else if (key === 'type') compareTypes(before, after, at, flip, w);
    else if (key === 'enum' || key === 'const') {
      if (!done.has('values')) compareValues(x, y, path, flip, w);
      done.add('values');
    } else if (key === 'minimum' || key === 'exclusiveMinimum' || key === 'maximum' || key === 'exclusiveMaximum') {
      const side = key === 'minimum' || key === 'exclusiveMinimum' ? 'lower' : 'upper';
      if (!done.has(side)) compareBound(x, y, path, side, flip, w);
      done.add(side);
    } else if (LOWER_COUNTS.has(key) || UPPER_COUNTS.has(key)) compareCount(before, after, at, LOWER_COUNTS.has(key), flip, w);
    else if (key === 'multipleOf') compareMultipleOf(before, after, at, flip, w);
    else if (CONSTRAINT_STRINGS.has(key)) {
      const direction = before === undefined ? 'narrowed' : after === undefined ? 'widened' : 'both';
      report(w, flip, direction, at, `${key} ${showOr(before)} → ${showOr(after)}.`);
    } else if (key === 'required') compareNames(before, after, at, ['narrowed', 'widened'], 'required', flip, w);
    else if (key === 'uniqueItems') {
      // Absent and false both allow duplicates.
      const flag = (value: unknown) => (value === undefined || typeof value === 'boolean' ? value === true : null);
      const [old, now] = [flag(before), flag(after)];
      const direction = old === null || now === null ? 'both' : now ? 'narrowed' : 'widened';
      if (old !== now || old === null) report(w, flip, direction, at, `uniqueItems ${showOr(before)} → ${showOr(after)}.`);
    } else if (OPEN_SUBSCHEMAS.has(key)) compare(before, after, at, depth + 1, flip, w);
    else if (key === 'contains' || key === 'not') {
      if (before === undefined || after === undefined) {
        report(w, flip, before === undefined ? 'narrowed' : 'widened', at, `${key} ${before === undefined ? 'added' : 'removed'}.`);
      } else compare(before, after, at, depth + 1, key === 'not' ? !flip : flip, w);
    } else if (key === 'items') {
      if (Array.isArray(before) && Array.isArray(after)) compareList(before, after, at, depth, ['both', 'both'], flip, w);
      else if (Array.isArray(before) || Array.isArray(after)) w.sink.both(at, 'items changed between a list and one schema.');
      else compare(before, after, at, depth + 1, flip, w);
    } else if (Object.prototype.hasOwnProperty.call(LISTS, key)) {
      // Absent is no constraint, unlike an empty list (an empty anyOf accepts nothing).
      if (before === undefined || after === undefined) {
        report(w, flip, before === undefined ? 'narrowed' : 'widened', at, `${key} ${before === undefined ? 'added' : 'removed'}.`);
      } else compareList(before, after, at, depth, LISTS[key] as [Direction, Direction], flip, w);
    } else if (Object.prototype.hasOwnProperty.call(MAPS, key)) {
      compareMap(before ?? {}, after ?? {}, at, depth, MAPS[key] as [Direction, Direction, string], flip, w);
    } else if (key === 'dependentRequired' || key === 'dependencies') compareDependencies(before ?? {}, after ?? {}, at, depth, flip, w);
    else if (key === 'default')
      w.sink.both(at, `The default changed (${showOr(before)} → ${showOr(after)}): what an omitted value means may differ.`);
    else
      w.sink.both(
        at,
        `${key} ${before === undefined ? 'added' : after === undefined ? 'removed' : 'changed'}; its effect cannot be told here.`,
      );
  }
}

const KNOWN_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

function typeSet(value: unknown): Set<string> | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value) && value.every((t) => typeof t === 'string')) return new Set(value as string[]);
  return null;
}

function acceptsType(set: Set<string> | undefined, type: string): boolean {
  return set === undefined || set.has(type) || (type === 'integer' && set.has('number'));
}

function compareTypes(before: unknown, after: unknown, path: string, flip: boolean, w: Walk): void {
  const old = typeSet(before);
  const now = typeSet(after);
  if (old === null || now === null) return w.sink.both(path, `type changed: ${show(before)} → ${show(after)}.`);
  const all = new Set([...KNOWN_TYPES, ...(old ?? []), ...(now ?? [])]);
  const gained = [...all].filter((t) => acceptsType(now, t) && !acceptsType(old, t));
  const lost = [...all].filter((t) => acceptsType(old, t) && !acceptsType(now, t));
  if (gained.length > 0) report(w, flip, 'widened', path, `Now also accepts type ${gained.join(', ')}.`);
  if (lost.length > 0) report(w, flip, 'narrowed', path, `No longer accepts type ${lost.join(', ')}.`);
}

function canon(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    return null; // too deep or not JSON: the caller reports both
  }
}

/** The values `enum` and `const` allow together: undefined when unrestricted, null when malformed. */
function allowedValues(schema: Record<string, unknown>): Map<string, unknown> | undefined | null {
  const list = own(schema, 'enum');
  let values: Map<string, unknown> | undefined;
  if (list !== undefined) {
    if (!Array.isArray(list)) return null;
    values = new Map();
    for (const value of list) {
      const key = canon(value);
      if (key === null) return null;
      values.set(key, value);
    }
  }
  if (Object.prototype.hasOwnProperty.call(schema, 'const')) {
    const value = own(schema, 'const');
    const key = canon(value);
    if (key === null) return null;
    values = values === undefined || values.has(key) ? new Map([[key, value]]) : new Map();
  }
  return values;
}

function listValues(keys: string[], values: Map<string, unknown>): string {
  const shown = keys.slice(0, 5).map((k) => show(values.get(k)));
  return keys.length > 5 ? `${shown.join(', ')} and ${keys.length - 5} more` : shown.join(', ');
}

function compareValues(x: Record<string, unknown>, y: Record<string, unknown>, path: string, flip: boolean, w: Walk): void {
  const at = childPath(path, own(x, 'enum') !== undefined || own(y, 'enum') !== undefined ? 'enum' : 'const');
  const old = allowedValues(x);
  const now = allowedValues(y);
  if (old === null || now === null) return w.sink.both(at, 'The allowed values changed and cannot be compared.');
  if (old === undefined && now === undefined) return;
  if (old === undefined) return report(w, flip, 'narrowed', at, `Now restricted to ${now?.size ?? 0} value(s).`);
  if (now === undefined) return report(w, flip, 'widened', at, 'No longer restricted to a list of values.');
  const added = [...now.keys()].filter((k) => !old.has(k));
  const removed = [...old.keys()].filter((k) => !now.has(k));
  if (added.length > 0) report(w, flip, 'widened', at, `Value(s) added: ${listValues(added, now)}.`);
  if (removed.length > 0) report(w, flip, 'narrowed', at, `Value(s) removed: ${listValues(removed, old)}.`);
}

interface Bound {
  value: number;
  exclusive: boolean;
  key: string;
}

function tighter(a: Bound, b: Bound, side: 'lower' | 'upper'): boolean {
  if (a.value === b.value) return a.exclusive && !b.exclusive;
  return side === 'lower' ? a.value > b.value : a.value < b.value;
}

/** The effective bound from the inclusive and exclusive keywords (draft 4's boolean form too). */
function readBound(schema: Record<string, unknown>, side: 'lower' | 'upper'): Bound | undefined | null {
  const inclusiveKey = side === 'lower' ? 'minimum' : 'maximum';
  const exclusiveKey = side === 'lower' ? 'exclusiveMinimum' : 'exclusiveMaximum';
  const inclusive = own(schema, inclusiveKey);
  const exclusive = own(schema, exclusiveKey);
  if (inclusive !== undefined && typeof inclusive !== 'number') return null;
  if (exclusive !== undefined && typeof exclusive !== 'number' && typeof exclusive !== 'boolean') return null;
  let bound: Bound | undefined;
  if (typeof inclusive === 'number') bound = { value: inclusive, exclusive: exclusive === true, key: inclusiveKey };
  if (typeof exclusive === 'number') {
    const candidate = { value: exclusive, exclusive: true, key: exclusiveKey };
    if (bound === undefined || tighter(candidate, bound, side)) bound = candidate;
  }
  return bound;
}

function showBound(bound: Bound, side: 'lower' | 'upper'): string {
  return `${side === 'lower' ? (bound.exclusive ? '>' : '≥') : bound.exclusive ? '<' : '≤'} ${bound.value}`;
}

function compareBound(
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  path: string,
  side: 'lower' | 'upper',
  flip: boolean,
  w: Walk,
) {
  const old = readBound(x, side);
  const now = readBound(y, side);
  const name = side === 'lower' ? 'Lower bound' : 'Upper bound';
  if (old === null || now === null)
    return w.sink.both(childPath(path, side === 'lower' ? 'minimum' : 'maximum'), `${name} changed and cannot be compared.`);
  if (old === undefined && now === undefined) return;
  const at = childPath(path, (now ?? old)?.key ?? '');
  if (old === undefined) return report(w, flip, 'narrowed', at, `${name} added: ${showBound(now as Bound, side)}.`);
  if (now === undefined) return report(w, flip, 'widened', at, `${name} removed (was ${showBound(old, side)}).`);
  if (old.value === now.value && old.exclusive === now.exclusive) return;
  const message = `${name} ${showBound(old, side)} → ${showBound(now, side)}.`;
  report(w, flip, tighter(now, old, side) ? 'narrowed' : 'widened', at, message);
}

function compareCount(before: unknown, after: unknown, path: string, lower: boolean, flip: boolean, w: Walk): void {
  const fallback = lower ? 0 : Infinity;
  const old = before === undefined ? fallback : before;
  const now = after === undefined ? fallback : after;
  if (typeof old !== 'number' || typeof now !== 'number') return w.sink.both(path, `Changed: ${show(before)} → ${show(after)}.`);
  if (old === now) return;
  const direction = lower === now > old ? 'narrowed' : 'widened';
  report(w, flip, direction, path, `${showOr(before)} → ${showOr(after)}.`);
}

function compareMultipleOf(before: unknown, after: unknown, path: string, flip: boolean, w: Walk): void {
  const message = `multipleOf ${showOr(before)} → ${showOr(after)}.`;
  if (before === undefined) return report(w, flip, 'narrowed', path, message);
  if (after === undefined) return report(w, flip, 'widened', path, message);
  if (typeof before !== 'number' || typeof after !== 'number' || before <= 0 || after <= 0) return w.sink.both(path, message);
  const direction = Number.isInteger(after / before) ? 'narrowed' : Number.isInteger(before / after) ? 'widened' : 'both';
  report(w, flip, direction, path, message);
}

function compareNames(before: unknown, after: unknown, path: string, ways: [Direction, Direction], what: string, flip: boolean, w: Walk) {
  const old = before ?? [];
  const now = after ?? [];
  if (!Array.isArray(old) || !Array.isArray(now)) return w.sink.both(path, `${what} changed and is not a list of names.`);
  const oldSet = new Set(old.map(String));
  const nowSet = new Set(now.map(String));
  const added = [...nowSet].filter((n) => !oldSet.has(n));
  const removed = [...oldSet].filter((n) => !nowSet.has(n));
  const names = (list: string[]) => listValues(list, new Map(list.map((n) => [n, n])));
  if (added.length > 0) report(w, flip, ways[0], path, `Now ${what}: ${names(added)}.`);
  if (removed.length > 0) report(w, flip, ways[1], path, `No longer ${what}: ${names(removed)}.`);
}

function compareList(before: unknown, after: unknown, path: string, depth: number, ways: [Direction, Direction], flip: boolean, w: Walk) {
  if (!Array.isArray(before) || !Array.isArray(after)) return w.sink.both(path, 'Changed, and is not a list of schemas.');
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) compare(before[i], after[i], childPath(path, i), depth + 1, flip, w);
  if (after.length > common) report(w, flip, ways[0], path, `${after.length - common} schema(s) added to the list.`);
  if (before.length > common) report(w, flip, ways[1], path, `${before.length - common} schema(s) removed from the list.`);
}

function compareMap(
  before: unknown,
  after: unknown,
  path: string,
  depth: number,
  ways: [Direction, Direction, string],
  flip: boolean,
  w: Walk,
) {
  if (!isObject(before) || !isObject(after)) return w.sink.both(path, 'Changed, and is not a map of schemas.');
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const had = Object.prototype.hasOwnProperty.call(before, key);
    const has = Object.prototype.hasOwnProperty.call(after, key);
    const at = childPath(path, key);
    if (had && has) compare(before[key], after[key], at, depth + 1, flip, w);
    else report(w, flip, has ? ways[0] : ways[1], at, `${ways[2]} ${show(key, 64)} ${has ? 'added' : 'removed'}.`);
  }
}

/** `dependentRequired` (name lists), `dependentSchemas`'s draft-7 form `dependencies` (either). */
function compareDependencies(before: unknown, after: unknown, path: string, depth: number, flip: boolean, w: Walk): void {
  if (!isObject(before) || !isObject(after)) return w.sink.both(path, 'Changed, and is not a map.');
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const old = own(before, key);
    const now = own(after, key);
    const at = childPath(path, key);
    if (jsonEqual(old, now)) continue;
    if (old === undefined || now === undefined)
      report(w, flip, old === undefined ? 'narrowed' : 'widened', at, `Dependency ${old === undefined ? 'added' : 'removed'}.`);
    else if (Array.isArray(old) && Array.isArray(now))
      compareNames(old, now, at, ['narrowed', 'widened'], `required with ${show(key, 64)}`, flip, w);
    else if (!Array.isArray(old) && !Array.isArray(now)) compare(old, now, at, depth + 1, flip, w);
    else w.sink.both(at, 'Dependency changed between a list of names and a schema.');
  }
}
