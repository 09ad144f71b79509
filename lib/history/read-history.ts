import type { CompiledPolicy } from '../policies/compile-policy';
import { toolPatternMatches } from '../policies/policy-schema';
import { CounterRows } from './counter-rows';
import { readCounterRows } from './counter-reader';
import type { CounterKey } from './history-ledger';
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

/** The counter keys a set of questions reads for a call, each from its oldest bucket. */
export function counterKeys(queries: readonly HistoryQuery[], call: HistoryCall, nowMs: number): CounterKey[] {
  const keys = new Map<string, CounterKey>();
  for (const query of queries) {
    const scope = scopeKey(query.series, query.scope, call, call.arguments);
    const from = windowStartBucket(nowMs, query.windowSeconds, query.series.bucketSeconds);
    const id = `${query.series.id}|${scope}`;
    const known = keys.get(id);
    if (!known || from < known.from) keys.set(id, { series: query.series.id, scope, from });
  }
  return [...keys.values()];
}

/**
 * The call's history as of now, from the counters its policies' questions read; null when no
 * policy asks about this tool's history (the common case: nothing is read).
 */
export async function readCallHistory(options: {
  tenantId: string;
  policies: readonly CompiledPolicy[];
  call: HistoryCall;
  nowMs: number;
}): Promise<HistoryView | null> {
  const queries = queriesForCall(options.policies, options.call.tool);
  if (queries.length === 0) return null;
  const keys = counterKeys(queries, options.call, options.nowMs);
  const loaded = await readCounterRows(options.tenantId, keys);
  const rows = new CounterRows();
  keys.forEach((key, i) => rows.load(key.series, key.scope, loaded[i] ?? []));
  return new HistoryView(rows, options.call, options.nowMs);
}
