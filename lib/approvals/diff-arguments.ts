import { REDACTED, redactArguments } from '../evidence/redact-arguments';
import { formatJsonPath, readDottedPath } from '../validation/json-path';
import { isJsonObject } from '../json';

/**
 * A small structural diff of two JSON values, for showing an approver what an earlier
 * approver's edit changed: the paths added, removed or changed. Objects are compared key by
 * key (own keys only, so `__proto__` is plain data), arrays index by index (an insertion shows
 * as changes plus an addition at the end: simple and honest, not minimal), anything else by
 * value. Pure and browser-safe.
 */

export type ArgumentChangeKind = 'added' | 'removed' | 'changed';

export interface ArgumentChange {
  kind: ArgumentChangeKind;
  /** JSONPath, e.g. `$.items[0].sku`. */
  path: string;
  /** Absent for `added`. */
  before?: unknown;
  /** Absent for `removed`. */
  after?: unknown;
}

export interface ArgumentsDiff {
  changes: ArgumentChange[];
  /** More changes exist than `changes` lists. */
  truncated: boolean;
}

/** Changes listed at most; an edit with more is better read whole. */
export const MAX_ARGUMENT_CHANGES = 200;
/** Deeper than this, a difference is reported as one change of the whole subtree. */
const MAX_DEPTH = 32;

type Json = unknown;
type Segment = string | number;

function isObject(value: Json): value is Record<string, Json> {
  return isJsonObject(value);
}

function own(object: Record<string, Json>, key: string): Json {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Deep equality of JSON values (key order does not matter). */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

export function diffArguments(before: Json, after: Json, options: { maxChanges?: number } = {}): ArgumentsDiff {
  const max = options.maxChanges ?? MAX_ARGUMENT_CHANGES;
  const changes: ArgumentChange[] = [];
  let truncated = false;

  const push = (change: ArgumentChange) => {
    if (changes.length < max) changes.push(change);
    else truncated = true;
  };

  const visit = (a: Json, b: Json, path: Segment[]): void => {
    if (truncated) return;
    if (path.length < MAX_DEPTH && isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (!Object.prototype.hasOwnProperty.call(b, key)) push({ kind: 'removed', path: formatJsonPath([...path, key]), before: a[key] });
        else visit(a[key], own(b, key), [...path, key]);
      }
      for (const key of Object.keys(b)) {
        if (!Object.prototype.hasOwnProperty.call(a, key)) push({ kind: 'added', path: formatJsonPath([...path, key]), after: b[key] });
      }
      return;
    }
    if (path.length < MAX_DEPTH && Array.isArray(a) && Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) visit(a[i], b[i], [...path, i]);
      for (let i = common; i < a.length; i++) push({ kind: 'removed', path: formatJsonPath([...path, i]), before: a[i] });
      for (let i = common; i < b.length; i++) push({ kind: 'added', path: formatJsonPath([...path, i]), after: b[i] });
      return;
    }
    if (!jsonEqual(a, b)) push({ kind: 'changed', path: formatJsonPath(path), before: a, after: b });
  };

  visit(before, after, []);
  return { changes, truncated };
}

/**
 * The diff an approver may see: both sides redacted at the contract's sensitive paths, so no
 * sensitive value leaks through the diff, yet a sensitive value that changed still shows as a
 * change (of `[REDACTED]` to `[REDACTED]`) rather than disappearing.
 */
export function diffRedactedArguments(options: {
  original: Record<string, unknown>;
  edited: Record<string, unknown>;
  sensitive: readonly string[];
  maxChanges?: number;
}): ArgumentsDiff {
  const { original, edited, sensitive } = options;
  const shown = diffArguments(JSON.parse(redactArguments(original, sensitive)), JSON.parse(redactArguments(edited, sensitive)), {
    maxChanges: options.maxChanges,
  });
  const listed = new Set(shown.changes.map((c) => c.path));
  for (const dotted of sensitive) {
    const before = readDottedPath(original, dotted);
    const after = readDottedPath(edited, dotted);
    const path = formatJsonPath(dotted.split('.'));
    if (before === undefined || after === undefined || listed.has(path) || jsonEqual(before, after)) continue;
    shown.changes.push({ kind: 'changed', path, before: REDACTED, after: REDACTED });
  }
  return shown;
}
