import { makeIssue, type ValidationIssue } from '../validation/error-codes';
import type { HistoryCel } from '../history/history-cel';
import type { Observation } from '../history/history-view';
import type { WindowSums } from '../history/counter-rows';
import { amountOf } from '../history/series';
import { exceeds, tidy } from '../history/limit-arithmetic';
import type { CompiledLimit } from './compile-policy';

/** How one limit stood for a call. */
export interface LimitCheck {
  policy_id: string;
  limit_id: string;
  kind: 'calls' | 'sum';
  max: number;
  /** What the window held before this call. */
  used: number;
  /** What this call adds: 1, or its argument's value. */
  amount: number;
  exceeded: boolean;
  when_exceeded: 'deny' | 'require_approval';
  retry_after_seconds: number | null;
  observation: Observation;
}

/**
 * Where a call stands against one limit. Nothing is counted here: the commit of the call's
 * evidence re-checks the window and counts the call in the same transaction.
 */
export function checkLimit(
  policyId: string,
  limit: CompiledLimit,
  call: { arguments: Record<string, unknown> },
  history: HistoryCel,
): LimitCheck {
  const view = history.view;
  const { query } = limit;
  const observation = view?.observe(query, false) ?? { series: query.series.id, scope: '', from: 0, count: 0, total: 0, lastAt: 0 };
  const { kind, used, amount, max, exceeded, mayFreeUp } = limitStanding(limit, observation, call.arguments);
  let retry: number | null = null;
  if (exceeded && view && mayFreeUp) {
    // The first moment enough of the oldest buckets have left the window.
    let freed = 0;
    const nowSeconds = Math.floor(view.nowMs / 1000);
    for (const row of view.buckets(observation)) {
      freed += kind === 'sum' ? row.total : row.count;
      if (!exceeds(used - freed + amount, max)) {
        retry = Math.max(1, row.bucket + query.series.bucketSeconds + query.windowSeconds - nowSeconds);
        break;
      }
    }
  }
  return {
    policy_id: policyId,
    limit_id: limit.id,
    kind,
    max,
    used,
    amount,
    exceeded,
    when_exceeded: limit.when_exceeded,
    retry_after_seconds: retry,
    observation,
  };
}

/** Where a window's sums put a call against a limit (before it is counted). */
export function limitStanding(limit: CompiledLimit, sums: WindowSums, args: Record<string, unknown>) {
  const kind: LimitCheck['kind'] = limit.max_sum ? 'sum' : 'calls';
  const used = kind === 'sum' ? sums.total : sums.count;
  const amount = kind === 'sum' ? amountOf(limit.query.series, args) : 1;
  const max = limit.max_sum?.value ?? limit.max_calls ?? 0;
  return { kind, used, amount, max, exceeded: exceeds(used + amount, max), mayFreeUp: !exceeds(amount, max) };
}

function remainingOf(max: number, used: number): number {
  return exceeds(max, used) ? tidy(max - used) : 0;
}

/** The refusal of a call past a hard limit: AXAG_RATE_LIMITED or AXAG_BUDGET_EXCEEDED, with what remains and when to retry. */
export function limitRefusal(
  policy: { id: string; version: string },
  limit: CompiledLimit,
  check: LimitCheck,
  intent: string,
): { reason: string; issue: ValidationIssue } {
  const code = check.kind === 'sum' ? 'AXAG_BUDGET_EXCEEDED' : 'AXAG_RATE_LIMITED';
  const remaining = remainingOf(check.max, check.used);
  const retry = check.retry_after_seconds === null ? 'it cannot be made within this limit' : `retry in ${check.retry_after_seconds} s`;
  const what = check.kind === 'sum' ? `${limit.max_sum?.path} adds up to at most ${check.max}` : `at most ${check.max} calls`;
  const reason = `${limit.reason ?? `Limit ${limit.id} of policy ${policy.id}`}: ${what} per ${limit.per} in ${limit.window}; ${remaining} remain${check.kind === 'sum' ? 's' : ''} and this call ${check.kind === 'sum' ? `asks for ${tidy(check.amount)}` : 'is one more'} (${retry}).`;
  const issue = makeIssue(code, {
    intent,
    message: reason,
    path: check.kind === 'sum' ? `$.${limit.max_sum?.path}` : '$',
    policy_id: policy.id,
    policy_version: policy.version,
    rule: limit.id,
    limit_id: limit.id,
    per: limit.per,
    window: limit.window,
    max: check.max,
    used: tidy(check.used),
    remaining,
    retry_after_seconds: check.retry_after_seconds,
  });
  return { reason, issue };
}
