import { canonicalJson, hashCanonical, sha256Hex } from '../contracts/canonical-json';
import { readDottedPath } from '../validation/json-path';
import { toolPatternMatches } from '../policies/policy-schema';
import type { Decision } from '../decisions';
import type { CallContext } from '../validation/call-context';
import type { HistoryScope } from './history-terms';

/**
 * A series is one thing counted over time: calls of some tools, with some outcome, measured
 * as a count, a sum of one argument, or per distinct values of some arguments. Its id is a
 * hash of that definition, so a republished policy asking the same question keeps the history
 * already counted, and two policies asking it share one series.
 */
export interface Series {
  id: string;
  /** Tool id patterns, sorted. */
  tools: string[];
  /** `counted`: calls that were allowed to run (allow, transform); or exactly this decision. */
  counts: 'counted' | Decision;
  /** Dotted argument path whose numeric value is summed, or null. */
  sumPath: string | null;
  /** Dotted argument paths whose values split the series (called_with), or null. */
  valuePaths: string[] | null;
  bucketSeconds: number;
}

export type SeriesDefinition = Omit<Series, 'id'>;

export function defineSeries(definition: SeriesDefinition): Series {
  const tools = [...new Set(definition.tools)].sort();
  const canonical = { ...definition, tools };
  return { id: hashCanonical(canonical).slice(0, 32), ...canonical };
}

export const COUNTED_DECISIONS: ReadonlySet<string> = new Set(['allow', 'transform']);

/** Whether a call of `tool` that ended in `decision` adds to the series. */
export function seriesCounts(series: Series, tool: string, decision: string): boolean {
  const counted = series.counts === 'counted' ? COUNTED_DECISIONS.has(decision) : decision === series.counts;
  return counted && series.tools.some((pattern) => toolPatternMatches(pattern, tool));
}

/** Who made a call, for one scope: the API key, the end user, the session, or nobody (tenant). */
export interface CallIdentity {
  apiKeyId: string | null;
  context: CallContext;
}

/**
 * The scope value a call is counted under. A call without a user (or session) id is counted
 * with every other call without one: one shared allowance, never an unlimited one.
 */
export function scopeValue(scope: HistoryScope, identity: CallIdentity): string {
  switch (scope) {
    case 'key':
      return identity.apiKeyId ?? '';
    case 'user':
      return identity.context.user_id ?? '';
    case 'session':
      return identity.context.session_id ?? '';
    case 'tenant':
      return '';
  }
}

/**
 * The counter key of a call in a series under a scope: a hash, so user and session ids (and
 * argument values for called_with) are not stored in the clear a second time.
 */
export function scopeKey(series: Series, scope: HistoryScope, identity: CallIdentity, args: Record<string, unknown>): string {
  const parts: unknown[] = [scope, scopeValue(scope, identity)];
  if (series.valuePaths) parts.push(series.valuePaths.map((path) => readDottedPath(args, path) ?? null));
  // Canonical JSON, so an object value is the same value whatever the order of its keys
  // (called_with on {"order":"o1","line":2} and {"line":2,"order":"o1"}). For strings, numbers,
  // booleans, null and arrays of them it is byte for byte what JSON.stringify wrote before, so
  // the counters already stored keep matching; only object-valued parts recorded before this
  // (keys then in the agent's order) stop matching, until they leave their window.
  const text = canonicalJson(parts);
  // A call asks for its scope keys several times (reading, deciding, counting), and the same
  // keys and users call again and again: a hash costs more than the whole lookup. Short texts
  // only, so the memo stays small whatever argument values called_with is given.
  if (text.length > 256) return sha256Hex(text).slice(0, 32);
  let key = scopeKeys.get(text);
  if (key === undefined) {
    if (scopeKeys.size >= 10_000) scopeKeys.clear();
    key = sha256Hex(text).slice(0, 32);
    scopeKeys.set(text, key);
  }
  return key;
}

const scopeKeys = new Map<string, string>();

/**
 * The amount a call adds to a sum: its numeric argument at the path, 0 when absent, not a
 * number, or not above 0. A budget is spent, never refunded by an argument: counting a negative
 * amount would let a call of -1000 lower the sum and the calls after it pass a max_sum.
 */
export function amountOf(series: Series, args: Record<string, unknown>): number {
  if (!series.sumPath) return 0;
  const value = readDottedPath(args, series.sumPath);
  // `> 0` also turns -0 (and NaN) into 0.
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
