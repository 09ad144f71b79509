import type { WindowSums } from './counter-rows';
import { windowKey, type CounterKey } from './history-ledger';

/**
 * What this process last knew of each window's sums: the sums every evidence commit leaves
 * (lib/history/history-ledger.ts reports them once the transaction is in) and every read of
 * the database. A limit's window on the request path is answered from here when it can be, so
 * a busy tool does not read three windows per call. Counts in a window only grow, so a known
 * value is never more than the truth: a call it allows is still checked against the database by
 * its evidence commit (and decided again if the limit filled meanwhile), and a call it would
 * refuse is read again from the database before it is refused (lib/history/read-history.ts).
 */
const MAX_ENTRIES = 50_000;
const known = new Map<string, WindowSums>();

const entryKey = (tenantId: string, key: CounterKey) => `${tenantId}|${windowKey(key)}`;

export function knownWindow(tenantId: string, key: CounterKey): WindowSums | undefined {
  return known.get(entryKey(tenantId, key));
}

/** Keeps sums as read or committed; an older, smaller count never replaces a newer one. */
export function rememberWindow(tenantId: string, key: CounterKey, sums: WindowSums): void {
  const id = entryKey(tenantId, key);
  const current = known.get(id);
  if (current && current.count > sums.count) return;
  if (current) known.delete(id);
  else if (known.size >= MAX_ENTRIES) {
    // The oldest entry first: windows move on (a new first bucket is a new entry), old ones are dead.
    const oldest = known.keys().next();
    if (!oldest.done) known.delete(oldest.value);
  }
  known.set(id, { count: sums.count, total: sums.total, lastAt: sums.lastAt });
}

export type CommittedWindow = CounterKey & WindowSums & { tenantId: string };

export function rememberCommitted(windows: readonly CommittedWindow[]): void {
  for (const w of windows) rememberWindow(w.tenantId, w, w);
}

/** Forgets everything (tests that rewrite counters behind the process's back). */
export function forgetWindows(): void {
  known.clear();
}
