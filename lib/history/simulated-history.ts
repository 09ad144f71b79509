import type { CompiledPolicy } from '../policies/compile-policy';
import type { CallContext } from '../validation/call-context';
import { historyIncrements } from './call-history';
import { CounterRows } from './counter-rows';
import { HistoryView } from './history-view';

/** A call made before the one being tried: what a playground or a policy test case declares. */
export interface SimulatedCall {
  tool: string;
  arguments?: Record<string, unknown>;
  context?: CallContext;
  /** The API key id it was made with (for `key` scopes); default: the tried call's. */
  api_key_id?: string | null;
  /** How it was decided (default `allow`); only calls that count for a series are counted in it. */
  decision?: string;
  /** How long before the tried call it was made. */
  seconds_ago: number;
}

/**
 * A history made of declared calls instead of counters, counted exactly as the evidence commit
 * would have counted them into the same buckets: the policy playground and policy test cases
 * see what a live call with that past would see.
 */
export function simulatedHistory(options: {
  policies: readonly CompiledPolicy[];
  calls: readonly SimulatedCall[];
  call: { tool: string; arguments: Record<string, unknown>; context: CallContext; apiKeyId?: string | null };
  nowMs: number;
}): HistoryView {
  const tracked = options.policies.flatMap((policy) => policy.historyQueries);
  const rows = new CounterRows();
  const apiKeyId = options.call.apiKeyId ?? null;
  for (const past of options.calls) {
    const at = options.nowMs - Math.max(0, past.seconds_ago) * 1000;
    const identity = {
      tool: past.tool,
      arguments: past.arguments ?? {},
      context: past.context ?? {},
      apiKeyId: past.api_key_id === undefined ? apiKeyId : past.api_key_id,
    };
    for (const inc of historyIncrements(tracked, identity, past.decision ?? 'allow', at)) {
      rows.add(inc.series, inc.scope, inc.bucket, 1, inc.total, inc.at);
    }
  }
  return new HistoryView(rows, { ...options.call, apiKeyId }, options.nowMs);
}
