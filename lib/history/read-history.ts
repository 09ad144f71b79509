import type { CompiledPolicy } from '../policies/compile-policy';
import { toolPatternMatches } from '../policies/policy-schema';
import { limitStanding } from '../policies/policy-limits';
import { NO_CALLS, WindowCounters } from './counter-rows';
import { readCounterRows, readWindowSums } from './counter-reader';
import { windowKey, type CounterKey } from './history-ledger';
import { knownWindow, rememberWindow } from './window-cache';
import type { HistoryQuery } from './history-query';
import { windowStartBucket } from './history-terms';
import { HistoryView } from './history-view';
import { scopeKey, type CallIdentity } from './series';

type HistoryCall = CallIdentity & { tool: string; arguments: Record<string, unknown> };

/** The history questions the policies can ask about a call of this tool (its limits and its rules' conditions). */
export function queriesForCall(policies: readonly CompiledPolicy[], tool: string): HistoryQuery[] {
  const found = new Map<string, HistoryQuery>();
  const matches = (tools: readonly string[]) => tools.some((pattern) => toolPatternMatches(pattern, tool));
  for (const policy of policies) {
    if (policy.historyQueries.length === 0) continue;
    for (const limit of policy.limits) if (matches(limit.tools)) found.set(limit.query.key, limit.query);
    for (const rule of policy.rules) {
      if (!rule.condition || !matches(rule.tools)) continue;
      for (const query of rule.condition.historyQueries) found.set(query.key, query);
    }
  }
  return [...found.values()];
}

/** The windows a set of questions reads for a call. */
export function counterKeys(queries: readonly HistoryQuery[], call: HistoryCall, nowMs: number): CounterKey[] {
  const keys = new Map<string, CounterKey>();
  for (const query of queries) {
    const key = {
      series: query.series.id,
      scope: scopeKey(query.series, query.scope, call, call.arguments),
      from: windowStartBucket(nowMs, query.windowSeconds, query.series.bucketSeconds),
    };
    keys.set(windowKey(key), key);
  }
  return [...keys.values()];
}

/** The keys of the questions the rules' conditions ask: answered exactly (their answers must still hold at the commit). */
function conditionQueryKeys(policies: readonly CompiledPolicy[], tool: string): Set<string> {
  const keys = new Set<string>();
  for (const policy of policies)
    for (const rule of policy.rules) {
      if (!rule.condition || !rule.tools.some((pattern) => toolPatternMatches(pattern, tool))) continue;
      for (const query of rule.condition.historyQueries) keys.add(query.key);
    }
  return keys;
}

/**
 * The call's history as of now, from the counters its policies' questions read; null when no
 * policy asks about this tool's history (the common case: nothing is read). A limit's window
 * comes from what this process last knew of it (lib/history/window-cache.ts) unless `fresh`;
 * a limit found past, and every condition's window, are read from the database.
 */
export async function readCallHistory(options: {
  tenantId: string;
  policies: readonly CompiledPolicy[];
  call: HistoryCall;
  nowMs: number;
  /** Read every window from the database (a call decided again after its commit was refused). */
  fresh?: boolean;
}): Promise<HistoryView | null> {
  const { tenantId, policies, call, nowMs } = options;
  const queries = queriesForCall(policies, call.tool);
  if (queries.length === 0) return null;
  const keys = counterKeys(queries, call, nowMs);
  const conditions = conditionQueryKeys(policies, call.tool);
  const exact =
    conditions.size > 0
      ? new Set(
          counterKeys(
            queries.filter((q) => conditions.has(q.key)),
            call,
            nowMs,
          ).map(windowKey),
        )
      : null;
  const counters = new WindowCounters();
  const read = async (wanted: readonly CounterKey[]) => {
    const sums = await readWindowSums(tenantId, wanted);
    wanted.forEach((key, i) => {
      const found = sums[i] ?? NO_CALLS;
      counters.setSums(key.series, key.scope, key.from, found);
      rememberWindow(tenantId, key, found);
    });
  };
  const unknown: CounterKey[] = [];
  let guessed = false;
  for (const key of keys) {
    const known = options.fresh || exact?.has(windowKey(key)) ? undefined : knownWindow(tenantId, key);
    if (!known) unknown.push(key);
    else {
      counters.setSums(key.series, key.scope, key.from, known);
      guessed = true;
    }
  }
  await read(unknown);
  const view = new HistoryView(counters, call, nowMs);
  let past = limitsPast(policies, call, view);
  if (past.length > 0 && guessed) {
    // Refused only on what the database says now.
    await read(keys.filter((key) => !unknown.includes(key)));
    past = limitsPast(policies, call, view);
  }
  // A limit already past says when it frees up, from its window's rows: read only then.
  past = past.filter((p) => p.mayFreeUp);
  if (past.length > 0) {
    const rows = await readCounterRows(tenantId, past);
    past.forEach((key, i) => counters.loadRows(key.series, key.scope, rows[i] ?? []));
  }
  return view;
}

/** The windows of the limits this call would go past. */
function limitsPast(policies: readonly CompiledPolicy[], call: HistoryCall, view: HistoryView): (CounterKey & { mayFreeUp: boolean })[] {
  const past = new Map<string, CounterKey & { mayFreeUp: boolean }>();
  for (const policy of policies)
    for (const limit of policy.limits) {
      if (!limit.tools.some((pattern) => toolPatternMatches(pattern, call.tool))) continue;
      const observation = view.observe(limit.query, false);
      const standing = limitStanding(limit, observation, call.arguments);
      if (!standing.exceeded) continue;
      const key = windowKey(observation);
      past.set(key, {
        series: observation.series,
        scope: observation.scope,
        from: observation.from,
        mayFreeUp: standing.mayFreeUp || !!past.get(key)?.mayFreeUp,
      });
    }
  return [...past.values()];
}
