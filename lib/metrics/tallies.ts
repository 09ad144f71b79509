/**
 * Counts kept as plain numbers, for the hot paths that make them (every cache lookup, every
 * webhook attempt): an increment is a map lookup, and the Prometheus metrics read them only at
 * scrape time (lib/metrics/metrics-registry.ts).
 *
 * On globalThis: under `npm start` the custom server and Next's bundle each load their own copy
 * of lib/ in one process, and one scrape must see what both counted.
 */
export interface MetricTallies {
  /** By cache name (its change key, lib/cache/change-feed.ts). */
  cacheLookups: Map<string, { hits: number; misses: number }>;
  /** By tenant id, then outcome. */
  webhookAttempts: Map<string, Record<WebhookAttemptOutcome, number>>;
  /** Each copy of lib/ has its own evidence writer; the queue depth is the sum of theirs. */
  queueDepthReaders: Set<() => number>;
  /** Records already counted, should two copies' observers both be told of one (see counters.ts). */
  counted: WeakSet<object>;
}

export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'failed';

const holder = globalThis as unknown as { toolgateMetricTallies?: MetricTallies };

export function metricTallies(): MetricTallies {
  return (holder.toolgateMetricTallies ??= {
    cacheLookups: new Map(),
    webhookAttempts: new Map(),
    queueDepthReaders: new Set(),
    counted: new WeakSet(),
  });
}
