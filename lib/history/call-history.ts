import type { CallIdentity } from './series';
import { amountOf, COUNTED_DECISIONS, scopeKey, seriesCounts } from './series';
import type { HistoryQuery } from './history-query';
import { bucketOf } from './history-terms';
import type { LimitCheck } from '../policies/evaluate-policies';
import type { HistoryView } from './history-view';

/**
 * What a call's evidence commit does to the history, decided with the call: the counters it
 * adds to (`increments`), the limits it must still fit (`claims`) and the answers its
 * conditions were given (`reads`). The commit checks claims and reads against the counters as
 * they are then, inside the same transaction, and refuses the record when one fails; the call
 * is then decided again from the new counts. That is what makes ten concurrent calls against a
 * limit of five allow exactly five, on any number of instances.
 */
export interface CallHistory {
  increments: { series: string; scope: string; bucket: number; total: number; at: number }[];
  claims: { series: string; scope: string; from: number; measure: 'count' | 'total'; max: number; amount: number }[];
  reads: { series: string; scope: string; from: number; count: number; total: number; lastAt: number }[];
}

/** The counters a call adds to, once per series and scope, when its decision counts there. */
export function historyIncrements(
  tracked: readonly HistoryQuery[],
  call: CallIdentity & { tool: string; arguments: Record<string, unknown> },
  decision: string,
  nowMs: number,
): CallHistory['increments'] {
  const out: CallHistory['increments'] = [];
  const seen = new Set<string>();
  for (const query of tracked) {
    const { series } = query;
    if (!seriesCounts(series, call.tool, decision)) continue;
    const scope = scopeKey(series, query.scope, call, call.arguments);
    const key = `${series.id}|${scope}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      series: series.id,
      scope,
      bucket: bucketOf(Math.floor(nowMs / 1000), series.bucketSeconds),
      total: amountOf(series, call.arguments),
      at: nowMs,
    });
  }
  return out;
}

export function buildCallHistory(options: {
  tracked: readonly HistoryQuery[];
  call: CallIdentity & { tool: string; arguments: Record<string, unknown> };
  decision: string;
  limits: readonly LimitCheck[];
  view: HistoryView;
}): CallHistory | undefined {
  const { view, decision } = options;
  const increments = historyIncrements(options.tracked, options.call, decision, view.nowMs);
  // A limit binds only a call that counts against it (one allowed to run), and only when it was
  // not already past: a soft limit's approved call counts without a claim, a person let it past.
  const claims: CallHistory['claims'] = COUNTED_DECISIONS.has(decision)
    ? options.limits
        .filter((check) => !check.exceeded)
        .map((check) => ({
          series: check.observation.series,
          scope: check.observation.scope,
          from: check.observation.from,
          measure: check.kind === 'sum' ? ('total' as const) : ('count' as const),
          max: check.max,
          amount: check.amount,
        }))
    : [];
  const reads = [...view.observed.values()].map(({ series, scope, from, count, total, lastAt }) => ({
    series,
    scope,
    from,
    count,
    total,
    lastAt,
  }));
  if (increments.length === 0 && claims.length === 0 && reads.length === 0) return undefined;
  return { increments, claims, reads };
}
