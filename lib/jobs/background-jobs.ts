import { expireOverdueApprovals } from '../approvals/expire-approval';
import { createWebhookDispatcher } from '../webhooks/deliver-webhooks';
import { pruneWebhookDeliveries } from '../webhooks/prune-webhook-deliveries';
import { purgeRetainedPayloads } from '../retention/purge-retained-payloads';
import { pruneHistoryCounters } from '../history/prune-history-counters';
import { runDueVerificationRuns, stopVerificationRuns } from '../evidence/verification/run-verification-runs';
import { pruneRateLimits } from '../auth/prune-rate-limits';
import { env } from '../env';
import { startIntervalJob, type IntervalJob } from './interval-job';

/**
 * Every instance's background work. Every job is safe to run on any number of instances at
 * once: each row is claimed with a conditional update, so exactly one instance expires an
 * approval or sends a delivery, and one purge runs at a time (a lease).
 * - the approval sweeper: overdue pending approvals end as expired (denied), with evidence and
 *   the approval.decided webhook (reads also do this lazily, so an idle instance is no risk);
 * - the webhook dispatcher: sends due outbox rows, with retries and backoff, a few of each tenant
 *   at a time without waiting for the slowest (lib/webhooks/deliver-webhooks.ts); settled rows
 *   older than a week are pruned hourly;
 * - the retention purge (every TOOLGATE_RETENTION_PURGE_INTERVAL_SECONDS): raw payloads past
 *   each tenant's retention window are removed (lib/retention);
 * - the history prune (hourly): policy history counters older than the longest window (lib/history);
 * - the evidence verification runner: full verification runs that are queued, or whose instance
 *   died mid-run (their lease ran out), are taken up and resumed (lib/evidence/verification);
 * - the rate-limit prune (every minute): sign-in rate-limit rows past every window (lib/auth).
 */
const SWEEP_INTERVAL_MS = 5_000;
const DELIVERY_INTERVAL_MS = 1_000;
// The purge's first run, a minute after start (once start-up work is done), then every interval.
const PURGE_FIRST_RUN_MS = 60_000;
const HISTORY_PRUNE_INTERVAL_MS = 3_600_000;
const VERIFICATION_INTERVAL_MS = 5_000;
const RATE_LIMIT_PRUNE_INTERVAL_MS = 60_000;

let jobs: IntervalJob[] = [];
let webhooks: ReturnType<typeof createWebhookDispatcher> | null = null;

export function startBackgroundJobs(): void {
  if (jobs.length > 0) return;
  const dispatcher = (webhooks = createWebhookDispatcher());
  jobs = [
    startIntervalJob('approval-sweeper', SWEEP_INTERVAL_MS, () => expireOverdueApprovals()),
    startIntervalJob('webhook-dispatcher', DELIVERY_INTERVAL_MS, () => dispatcher.tick()),
    startIntervalJob('webhook-prune', HISTORY_PRUNE_INTERVAL_MS, () => pruneWebhookDeliveries(), { firstRunAfterMs: PURGE_FIRST_RUN_MS }),
    startIntervalJob('retention-purge', env().TOOLGATE_RETENTION_PURGE_INTERVAL_SECONDS * 1000, () => purgeRetainedPayloads(), {
      firstRunAfterMs: PURGE_FIRST_RUN_MS,
    }),
    startIntervalJob('history-prune', HISTORY_PRUNE_INTERVAL_MS, () => pruneHistoryCounters(), { firstRunAfterMs: PURGE_FIRST_RUN_MS }),
    startIntervalJob('evidence-verification', VERIFICATION_INTERVAL_MS, () => runDueVerificationRuns()),
    startIntervalJob('rate-limit-prune', RATE_LIMIT_PRUNE_INTERVAL_MS, () => pruneRateLimits()),
  ];
}

/** Stops the timers and waits for runs in progress (shutdown: before the database closes). */
export async function stopBackgroundJobs(): Promise<void> {
  const running = jobs;
  const dispatcher = webhooks;
  jobs = [];
  webhooks = null;
  // Runs stop at their next page and give their lease back, for another instance to resume.
  await Promise.all([stopVerificationRuns(), ...running.map((job) => job.stop())]);
  // Deliveries in flight settle (or their lease runs out and another instance retries them).
  await dispatcher?.stop();
}
