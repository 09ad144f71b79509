import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import { log } from '../log';
import { telemetryDropCounts } from '../telemetry/trace-export';
import { evidenceUnavailableCounts } from '../evidence/evidence-unavailable';
import { BoundedLabel } from './bounded-label';
import { countPendingApprovalsByTenant, listTenantSlugs } from './scrape-queries';
import { metricTallies } from './tallies';

/** Distinct tool names that get their own series; later ones are counted as `other`. */
export const TOOL_LABEL_LIMIT = 500;
/** Distinct error codes likewise (the registries define fewer than this today). */
export const CODE_LABEL_LIMIT = 200;

/** Seconds. A decision takes about a millisecond; the long tail is a slow database or a full queue. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export type DecisionLabel = 'tenant' | 'kind' | 'tool' | 'decision' | 'code';

export interface ToolgateMetrics {
  registry: Registry;
  decisions: Counter<DecisionLabel>;
  decisionSeconds: Histogram<'tenant' | 'kind' | 'decision'>;
  commitSeconds: Histogram<'tenant'>;
  tools: BoundedLabel;
  codes: BoundedLabel;
}

/**
 * What an admin API key sees, for its own tenant only and without the `tenant` label (plus
 * toolgate_pending_approvals, counted for its tenant alone). Every other metric describes the
 * instance, which its tenants share: only the operator's metrics token sees those.
 */
export const TENANT_METRICS = [
  'toolgate_decisions_total',
  'toolgate_decision_duration_seconds',
  'toolgate_evidence_commit_duration_seconds',
  'toolgate_webhook_deliveries_total',
  'toolgate_webhook_delivery_failures_total',
] as const;

export const PENDING_APPROVALS_METRIC = { name: 'toolgate_pending_approvals', help: 'Approvals waiting for a person now.' } as const;

// On globalThis, like the tallies: both copies of lib/ in one process count into one registry.
const holder = globalThis as unknown as { toolgateMetrics?: ToolgateMetrics };

/** The process's metrics, made on first use (nothing is collected by processes that never count). */
export function toolgateMetrics(): ToolgateMetrics {
  return (holder.toolgateMetrics ??= createMetrics());
}

function createMetrics(): ToolgateMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const tallies = metricTallies();

  new Counter({
    name: 'toolgate_cache_hits_total',
    help: 'Lookups answered from an in-memory cache, by cache.',
    labelNames: ['cache'],
    registers,
    collect() {
      this.reset();
      for (const [cache, counts] of tallies.cacheLookups) this.inc({ cache }, counts.hits);
    },
  });
  new Counter({
    name: 'toolgate_cache_misses_total',
    help: 'Lookups an in-memory cache could not answer (read from the database), by cache.',
    labelNames: ['cache'],
    registers,
    collect() {
      this.reset();
      for (const [cache, counts] of tallies.cacheLookups) this.inc({ cache }, counts.misses);
    },
  });
  new Counter({
    name: 'toolgate_webhook_deliveries_total',
    help: 'Webhook deliveries a receiver accepted (2xx).',
    labelNames: ['tenant'],
    registers,
    collect() {
      this.reset();
      for (const [tenant, counts] of tallies.webhookAttempts) this.inc({ tenant }, counts.delivered);
    },
  });
  new Counter({
    name: 'toolgate_webhook_delivery_failures_total',
    help: 'Failed webhook delivery attempts; final="true" when the delivery was given up (no more retries).',
    labelNames: ['tenant', 'final'],
    registers,
    collect() {
      this.reset();
      for (const [tenant, counts] of tallies.webhookAttempts) {
        this.inc({ tenant, final: 'false' }, counts.retrying);
        this.inc({ tenant, final: 'true' }, counts.failed);
      }
    },
  });
  new Gauge({
    name: 'toolgate_evidence_queue_depth',
    help: 'Evidence records waiting to be committed (past TOOLGATE_EVIDENCE_QUEUE_MAX, validations answer 503).',
    registers,
    collect() {
      let depth = 0;
      for (const read of tallies.queueDepthReaders) depth += read();
      this.set(depth);
    },
  });
  new Counter({
    name: 'toolgate_evidence_unavailable_total',
    help: 'Calls answered 503 because their evidence could not be written, so nothing was decided: reason="evidence_unavailable" (the database did not commit: down, disk full, locked) or "evidence_queue_full".',
    labelNames: ['reason'],
    registers,
    collect() {
      const counts = evidenceUnavailableCounts();
      this.reset();
      this.inc({ reason: 'evidence_unavailable' }, counts.evidence_unavailable);
      this.inc({ reason: 'evidence_queue_full' }, counts.evidence_queue_full);
    },
  });
  new Counter({
    name: 'toolgate_telemetry_spans_exported_total',
    help: 'Decision spans the OpenTelemetry collector accepted (0 while trace export is off).',
    registers,
    collect() {
      this.reset();
      this.inc(telemetryDropCounts().exported);
    },
  });
  new Counter({
    name: 'toolgate_telemetry_spans_dropped_total',
    help: 'Decision spans not delivered: reason="queue_full" (the export queue was full) or "export_failed" (the collector refused or was unreachable).',
    labelNames: ['reason'],
    registers,
    collect() {
      const counts = telemetryDropCounts();
      this.reset();
      this.inc({ reason: 'queue_full' }, counts.queueFull);
      this.inc({ reason: 'export_failed' }, counts.exportFailed);
    },
  });
  databaseGauge(registry, {
    name: 'toolgate_tenant_info',
    help: 'Each tenant, always 1: joins the tenant id of the other metrics to its slug.',
    labelNames: ['tenant', 'slug'],
    read: async () => (await listTenantSlugs()).map(({ id, slug }) => [{ tenant: id, slug }, 1]),
  });
  databaseGauge(registry, {
    ...PENDING_APPROVALS_METRIC,
    labelNames: ['tenant'],
    read: async () => [...(await countPendingApprovalsByTenant())].map(([tenant, count]) => [{ tenant }, count]),
  });

  return {
    registry,
    decisions: new Counter({
      name: 'toolgate_decisions_total',
      help: 'Decisions recorded as evidence, by kind (pre, post, pipeline, manifest, approval_decision), tool, decision and first error code.',
      labelNames: ['tenant', 'kind', 'tool', 'decision', 'code'],
      registers,
    }),
    decisionSeconds: new Histogram({
      name: 'toolgate_decision_duration_seconds',
      help: 'Time to reach a decision, from the request to its evidence record being queued (the record durationMs).',
      labelNames: ['tenant', 'kind', 'decision'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    commitSeconds: new Histogram({
      name: 'toolgate_evidence_commit_duration_seconds',
      help: 'Time from an evidence record being queued to its commit: the queue wait and the transaction.',
      labelNames: ['tenant'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    tools: new BoundedLabel(TOOL_LABEL_LIMIT),
    codes: new BoundedLabel(CODE_LABEL_LIMIT),
  };
}

/**
 * A gauge read from the database at each scrape. While the database is away it is left empty and
 * the rest of the scrape still answers: the process metrics matter most just then.
 */
function databaseGauge<L extends string>(
  registry: Registry,
  options: { name: string; help: string; labelNames: L[]; read: () => Promise<[LabelValues<L>, number][]> },
): void {
  const { read, ...config } = options;
  new Gauge({
    ...config,
    registers: [registry],
    async collect() {
      try {
        const values = await read();
        this.reset();
        for (const [labels, value] of values) this.set(labels, value);
      } catch (error) {
        this.reset();
        log.warn(`metrics: ${config.name} not read`, { error: String((error as Error).message ?? error).slice(0, 200) });
      }
    },
  });
}
