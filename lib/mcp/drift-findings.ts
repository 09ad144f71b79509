/**
 * What the drift classifier reports, and the helpers its schema and text passes share. Browser-
 * safe (no Node imports): the studio shows the same findings next to the definition diff.
 */

/** Every class a drift can have, in the order reports list them. */
export const DRIFT_CLASSES = [
  'cosmetic',
  'schema_widened',
  'schema_narrowed',
  'side_effect_raised',
  'side_effect_lowered',
  'instructions_added',
] as const;

export type DriftClass = (typeof DRIFT_CLASSES)[number];

export interface DriftFinding {
  class: DriftClass;
  /** Where, as `inputSchema.properties.amount.maximum`; odd keys are quoted: `properties["a.b"]`. */
  path: string;
  message: string;
}

export interface DriftReport {
  /** Empty when nothing changed; exactly `['cosmetic']` when only wording did. */
  classes: DriftClass[];
  /** At most MAX_FINDINGS, at least one per class listed. */
  findings: DriftFinding[];
  /** Findings left out to respect MAX_FINDINGS. */
  omitted: number;
}

export const MAX_FINDINGS = 50;
// Findings kept while comparing, before the final pick; bounds memory on hostile definitions.
const MAX_COLLECTED = 1_000;
const MAX_PATH_LENGTH = 300;
const MAX_KEY_SHOWN = 64;

/** Collects findings; wording changes are kept apart since they only count when nothing else changed. */
export class DriftFindings {
  private readonly collected: DriftFinding[] = [];
  private readonly wording: DriftFinding[] = [];
  private readonly seen = new Set<DriftClass>();
  private dropped = 0;

  add(cls: Exclude<DriftClass, 'cosmetic'>, path: string, message: string): void {
    // The first finding of each class is always kept, so every class listed has one to show.
    if (this.collected.length < MAX_COLLECTED || !this.seen.has(cls)) this.collected.push({ class: cls, path, message });
    else this.dropped += 1;
    this.seen.add(cls);
  }

  /** A change whose direction cannot be told: reported as both, the conservative answer. */
  both(path: string, message: string): void {
    this.add('schema_widened', path, message);
    this.add('schema_narrowed', path, message);
  }

  wordingChanged(path: string, message: string): void {
    if (this.wording.length < MAX_COLLECTED) this.wording.push({ class: 'cosmetic', path, message });
  }

  /** `changed`: the two definitions differ at all (a change found equivalent is still cosmetic). */
  report(changed: boolean): DriftReport {
    const classes = DRIFT_CLASSES.filter((c) => this.seen.has(c));
    if (classes.length === 0) {
      if (!changed && this.wording.length === 0) return { classes: [], findings: [], omitted: 0 };
      const wording = this.wording.length > 0 ? this.wording : [{ class: 'cosmetic' as const, path: '', message: 'No change in meaning.' }];
      return { classes: ['cosmetic'], findings: wording.slice(0, MAX_FINDINGS), omitted: Math.max(0, wording.length - MAX_FINDINGS) };
    }
    const picked = new Set<number>();
    for (const cls of classes) {
      const index = this.collected.findIndex((f) => f.class === cls);
      if (index >= 0) picked.add(index);
    }
    for (let i = 0; i < this.collected.length && picked.size < MAX_FINDINGS; i++) picked.add(i);
    const findings = [...picked].sort((a, b) => a - b).map((i) => this.collected[i] as DriftFinding);
    return { classes, findings, omitted: this.collected.length - findings.length + this.dropped };
  }
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `path` extended by an object key (dotted when plain, else quoted) or an array index. */
export function childPath(path: string, key: string | number): string {
  if (path.length >= MAX_PATH_LENGTH) return path.endsWith('…') ? path : `${path}…`;
  if (typeof key === 'number') return `${path}[${key}]`;
  if (PLAIN_KEY.test(key) && key.length <= MAX_KEY_SHOWN) return path === '' ? key : `${path}.${key}`;
  const shown = key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN)}…` : key;
  return `${path}[${JSON.stringify(shown)}]`;
}

/** The value of an own property only: a `__proto__` key from JSON.parse is data, and nothing is inherited. */
export function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep equality of JSON values without recursion (so nesting cannot overflow the stack), over
 * own keys only. Past `limit` nodes it answers false: "cannot tell" must read as "changed".
 */
export function jsonEqual(a: unknown, b: unknown, limit = 500_000): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  let work = 0;
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (x === y) continue;
    if (++work > limit) return false;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ys[i]]);
      continue;
    }
    const xKeys = Object.keys(x);
    if (xKeys.length !== Object.keys(y).length) return false;
    for (const key of xKeys) {
      if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
      stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

/** A value for a message, cut short; objects are only named, so showing one costs nothing. */
export function show(value: unknown, max = 40): string {
  if (typeof value === 'string')
    return value.length > max ? `${JSON.stringify(value.slice(0, max)).slice(0, -1)}…"` : JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[…${value.length} items]`;
  if (typeof value === 'object' && value !== null) return '{…}';
  return String(value);
}
