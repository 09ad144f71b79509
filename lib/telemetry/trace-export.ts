import { env, type Env } from '../env';
import { observeEvidence } from '../evidence/evidence-observers';
import { decisionSpan } from './decision-span';
import type { TelemetryCounts, TracePipeline } from './otlp-pipeline';

/**
 * Every decision as an OpenTelemetry span (decision-span.ts), exported over OTLP/HTTP when an
 * endpoint is configured. Off, nothing of the SDK is loaded.
 *
 * One pipeline per process, kept on globalThis: the server bundle (scripts/start.ts) and Next's
 * instrumentation hook each load their own copy of this module, and both must feed one queue
 * and one set of counts. Each copy registers its own observer, since each may see its own copy
 * of the evidence observers; where two copies share one, the second skips the record the first
 * has just exported (observers hear each record in turn, synchronously).
 */
interface SharedState {
  pipeline: Promise<TracePipeline> | null;
  counts: TelemetryCounts;
  lastEvidenceId: string | null;
}

const SHARED = Symbol.for('toolgate.telemetry');

function shared(): SharedState {
  const holder = globalThis as { [SHARED]?: SharedState };
  return (holder[SHARED] ??= { pipeline: null, counts: { exported: 0, queueFull: 0, exportFailed: 0 }, lastEvidenceId: null });
}

/** This module copy's observer, while export is on. */
let stopObserving: (() => void) | null = null;

/**
 * Whether decisions are exported: an OTLP endpoint is set, the SDK is not disabled, and
 * OTEL_TRACES_EXPORTER (when set) names otlp, the only exporter Toolgate ships.
 */
export function traceExportEnabled(
  settings: Pick<Env, 'OTEL_SDK_DISABLED' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_TRACES_EXPORTER'>,
): boolean {
  if (settings.OTEL_SDK_DISABLED) return false;
  if (!settings.OTEL_EXPORTER_OTLP_ENDPOINT && !settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  const exporters = settings.OTEL_TRACES_EXPORTER?.split(',').map((name) => name.trim().toLowerCase());
  return !exporters || exporters.includes('otlp');
}

/**
 * Starts exporting (once per process; later calls only register this copy's observer). Returns
 * whether export is on. The observer only builds a span and queues it: a slow or dead collector
 * never delays or fails a decision.
 */
export async function startTraceExport(): Promise<boolean> {
  const settings = env();
  if (!traceExportEnabled(settings)) return false;
  const state = shared();
  state.pipeline ??= import('./otlp-pipeline').then(({ createTracePipeline }) => createTracePipeline(state.counts));
  const pipeline = await state.pipeline;
  if (!stopObserving) {
    const withArguments = settings.TOOLGATE_OTEL_ARGUMENTS;
    stopObserving = observeEvidence((committed) => {
      if (state.lastEvidenceId === committed.recorded.id) return;
      state.lastEvidenceId = committed.recorded.id;
      // Ends on the wall clock, which collectors line spans up by (a process's monotonic clock
      // drifts from it over days of uptime).
      const span = decisionSpan(committed, { arguments: withArguments, endMs: Date.now() });
      if (span) pipeline.emit(span);
    });
  }
  return true;
}

/** Waits for the queued spans to be exported (or to fail): for shutdown and tests. */
export async function flushTraceExport(): Promise<void> {
  const pipeline = await shared().pipeline;
  await pipeline?.flush();
}

/** Stops observing and shuts the pipeline down, exporting what is queued first. */
export async function stopTraceExport(): Promise<void> {
  stopObserving?.();
  stopObserving = null;
  const state = shared();
  const pipeline = state.pipeline;
  state.pipeline = null;
  await (await pipeline)?.shutdown();
}

/**
 * Spans this process could not deliver, for the metrics: refused by a full queue, or lost with a
 * failed export; and, for scale, the spans delivered. Zeros while export is off.
 */
export function telemetryDropCounts(): Readonly<TelemetryCounts> {
  return { ...shared().counts };
}
