// The pure part of the limit path, in process: what the request thread does for three limits
// besides reading the windows (lib/history/read-history.ts's keys, the windows' sums put in
// memory, the view, evaluatePolicies, and the call's history for the commit), next to
// evaluatePolicies with the same policy without limits.
import { CounterRows, WindowCounters, type CounterRow } from '../../lib/history/counter-rows';
import { HistoryView } from '../../lib/history/history-view';
import { buildCallHistory } from '../../lib/history/call-history';
import { counterKeys, queriesForCall } from '../../lib/history/read-history';
import { evaluatePolicies, type PolicyCall } from '../../lib/policies/evaluate-policies';
import { compiled, limitedPolicy, plainPolicy, refundCall, TOOL } from './seed';

export interface MicroResult {
  name: string;
  us: number;
}

function usPerOp(fn: (i: number) => unknown, seconds: number): number {
  for (let i = 0; i < 20_000; i++) fn(i);
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) fn(count + i);
    count += 1000;
  }
  return ((performance.now() - start) * 1000) / count;
}

export function microbench(seconds = 2): MicroResult[] {
  const plain = [compiled(plainPolicy)];
  const limited = [compiled(limitedPolicy)];
  const nowMs = Date.now();
  const calls: PolicyCall[] = Array.from({ length: 64 }, (_, i) => ({
    tool: TOOL,
    sideEffectLevel: 'external',
    apiKeyId: `key_${i % 4}`,
    ...refundCall(i),
  }));
  // What the counter reader would return for each key of each call: a row in every bucket.
  const loaded = calls.map((call) =>
    counterKeys(queriesForCall(limited, TOOL), { ...call, apiKeyId: call.apiKeyId ?? null }, nowMs).map((key) => {
      const query = queriesForCall(limited, TOOL).find((q) => q.series.id === key.series);
      const step = query?.series.bucketSeconds ?? 60;
      const rows: CounterRow[] = [];
      for (let bucket = key.from; bucket * 1000 <= nowMs; bucket += step)
        rows.push({ bucket, count: 3, total: 4500, lastAt: bucket * 1000 });
      return rows;
    }),
  );
  const tracked = limited.flatMap((p) => p.historyQueries);

  // What each window adds up to (the database does the adding: lib/history/counter-reader.ts).
  const sums = loaded.map((forCall) =>
    forCall.map((rows) => {
      const held = new CounterRows();
      held.load('s', 'k', rows);
      return held.sums('s', 'k', rows[0]?.bucket ?? 0);
    }),
  );
  // readCallHistory without the read: the keys, the sums put in memory, the view.
  const viewFor = (call: PolicyCall, i: number) => {
    const historyCall = { ...call, apiKeyId: call.apiKeyId ?? null };
    const keys = counterKeys(queriesForCall(limited, call.tool), historyCall, nowMs);
    const windows = new WindowCounters();
    const forCall = sums[i % calls.length] ?? [];
    keys.forEach((key, k) => windows.setSums(key.series, key.scope, key.from, forCall[k] ?? { count: 0, total: 0, lastAt: 0 }));
    return { historyCall, view: new HistoryView(windows, historyCall, nowMs) };
  };
  const withLimits = (i: number) => {
    const call = calls[i % calls.length] as PolicyCall;
    const { historyCall, view } = viewFor(call, i);
    const outcome = evaluatePolicies(limited, call, { history: view });
    return buildCallHistory({ tracked, call: historyCall, decision: outcome.decision, limits: outcome.limits, view });
  };
  const check = withLimits(0);
  if (!check || check.claims.length !== 3 || check.increments.length !== 3)
    throw new Error('the limited policy did not check three limits');

  const results: MicroResult[] = [];
  const run = (name: string, fn: (i: number) => unknown) => results.push({ name, us: usPerOp(fn, seconds) });
  run('evaluatePolicies, policy without limits', (i) => evaluatePolicies(plain, calls[i % calls.length] as PolicyCall));
  run('limit path: keys, windows, view, evaluatePolicies (3 limits), call history', withLimits);
  run('  of which keys, windows and view', (i) => viewFor(calls[i % calls.length] as PolicyCall, i));
  return results;
}
