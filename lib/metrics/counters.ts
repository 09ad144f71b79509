import { evidenceQueueDepth, observeEvidence } from '../evidence/evidence-observers';
import { countDecision } from './count-decision';
import { metricTallies, type WebhookAttemptOutcome } from './tallies';

/** One lookup in an in-memory cache (lib/cache/change-feed.ts), by the cache's change key. */
export function countCacheLookup(cache: string, hit: boolean): void {
  const lookups = metricTallies().cacheLookups;
  let counts = lookups.get(cache);
  if (!counts) lookups.set(cache, (counts = { hits: 0, misses: 0 }));
  if (hit) counts.hits++;
  else counts.misses++;
}

/** One webhook delivery attempt's outcome (lib/webhooks/deliver-webhooks.ts). */
export function countWebhookAttempt(tenantId: string, outcome: WebhookAttemptOutcome): void {
  const attempts = metricTallies().webhookAttempts;
  let counts = attempts.get(tenantId);
  if (!counts) attempts.set(tenantId, (counts = { delivered: 0, retrying: 0, failed: 0 }));
  counts[outcome]++;
}

/**
 * Registered here, when this module loads, because lib/cache imports it: every copy of lib/ that
 * serves requests loads it before it records anything. Under `npm start` the custom server and
 * Next's bundle each have their own copy of lib/evidence, with its own observers and its own
 * writer, so each copy registers once with its own. Should both copies' observers ever be told of
 * one record (a shared observer list), the record is still counted once.
 */
const tallies = metricTallies();
observeEvidence((committed) => {
  if (tallies.counted.has(committed)) return;
  tallies.counted.add(committed);
  countDecision(committed);
});
tallies.queueDepthReaders.add(evidenceQueueDepth);
