import { readDottedPath } from '../validation/json-path';
import type { CounterRow, CounterSource, WindowSums } from './counter-rows';
import type { HistoryQuery } from './history-query';
import { windowStartBucket } from './history-terms';
import { scopeKey, type CallIdentity } from './series';

/** What one history question answered for one call, kept so the commit can check it still holds. */
export interface Observation extends WindowSums {
  series: string;
  scope: string;
  /** The oldest bucket read. */
  from: number;
}

/**
 * A call's history as policies see it: counter rows loaded for the questions its policies ask,
 * read at one instant. Every answer given to a condition is kept (`observed`): if another call
 * changes one before this call's evidence commits, the commit refuses and the call is decided
 * again (see lib/history/history-ledger.ts).
 */
export class HistoryView {
  readonly observed = new Map<string, Observation>();

  constructor(
    private readonly rows: CounterSource,
    private readonly call: CallIdentity & { arguments: Record<string, unknown> },
    readonly nowMs: number,
  ) {}

  /** The same history, answering without keeping answers (for shadow evaluations, which decide nothing). */
  detached(): HistoryView {
    return new HistoryView(this.rows, this.call, this.nowMs);
  }

  /** The series' sums over the window for this call; `record` keeps the answer for the commit to check. */
  observe(query: HistoryQuery, record: boolean): Observation {
    const scope = scopeKey(query.series, query.scope, this.call, this.call.arguments);
    const from = windowStartBucket(this.nowMs, query.windowSeconds, query.series.bucketSeconds);
    const observation: Observation = { series: query.series.id, scope, from, ...this.rows.sums(query.series.id, scope, from) };
    if (record) this.observed.set(query.key, observation);
    return observation;
  }

  /** The window's buckets, oldest first (for when a limit frees up). */
  buckets(observation: Observation): CounterRow[] {
    return this.rows.get(observation.series, observation.scope).filter((row) => row.bucket >= observation.from);
  }

  /** Whether the call itself has a value at every path (called_with compares nothing otherwise). */
  hasValuesAt(paths: readonly string[]): boolean {
    return paths.every((path) => readDottedPath(this.call.arguments, path) !== undefined);
  }
}
