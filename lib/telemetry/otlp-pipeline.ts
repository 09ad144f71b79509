// The OpenTelemetry SDK and its OTLP/HTTP exporter, loaded only when trace export is on
// (trace-export.ts imports this file dynamically). The SDK reads the standard OTEL_* variables
// itself: the endpoint, headers, timeout and compression (OTEL_EXPORTER_OTLP_*), the batch
// processor's queue (OTEL_BSP_*), the sampler (OTEL_TRACES_SAMPLER) and the resource
// (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES).
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  createNoopMeter,
  trace,
  type Attributes,
  type Counter,
  type Meter,
  type MeterProvider,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  RandomIdGenerator,
  type BufferConfig,
  type IdGenerator,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { repeatedFailureLog } from '../repeated-failure-log';
import type { DecisionSpan } from './decision-span';

/** What became of the spans handed to the pipeline, for the whole process. */
export interface TelemetryCounts {
  /** Accepted by the collector. */
  exported: number;
  /** Refused because the batch processor's queue was full (OTEL_BSP_MAX_QUEUE_SIZE). */
  queueFull: number;
  /** In a batch the collector refused, or that failed or timed out on the way. */
  exportFailed: number;
}

export interface TracePipeline {
  /** Builds the span and hands it to the batch processor: no I/O, never throws. */
  emit(span: DecisionSpan): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

// The batch processor reports each span it finished with on this counter (its self-observability
// metric), with error.type "queue_full" for the spans it dropped; reading it is how drops are
// counted without reaching into the processor.
const PROCESSED_SPANS = 'otel.sdk.processor.span.processed';

export function createTracePipeline(counts: TelemetryCounts): TracePipeline {
  const ids = new CallerTraceIds();
  // The resource: Toolgate unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'toolgate' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const config: BufferConfig & { selfObsMeterProvider: MeterProvider } = { selfObsMeterProvider: countingMeterProvider(counts) };
  const processor = new BatchSpanProcessor(new LoggedExporter(new OTLPTraceExporter()), config);
  // Not registered as the global provider: Next.js would then trace every request it serves.
  const provider = new BasicTracerProvider({ resource, idGenerator: ids, spanProcessors: [processor] });
  const tracer = provider.getTracer('toolgate');

  return {
    emit(span) {
      const context = span.parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: span.traceId,
            spanId: span.parent.spanId,
            traceFlags: span.parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      if (!span.parent) ids.nextTraceId = span.traceId;
      try {
        const started = tracer.startSpan(
          span.name,
          { kind: SpanKind.INTERNAL, startTime: span.startMs, attributes: span.attributes },
          context,
        );
        if (span.refused) started.setStatus({ code: SpanStatusCode.ERROR });
        started.end(span.endMs);
      } finally {
        ids.nextTraceId = null;
      }
    },
    async flush() {
      // A failed export is already counted; flushing only waits for it.
      await provider.forceFlush().catch(() => undefined);
    },
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
    },
  };
}

/**
 * Root spans take Toolgate's trace id for the call (derived from tenant and call_id), so the
 * pre, post and approval spans of one call land in one trace, the one the dashboard shows.
 * The tracer asks for a trace id synchronously inside startSpan, right after emit sets it.
 */
class CallerTraceIds implements IdGenerator {
  nextTraceId: string | null = null;
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    return this.nextTraceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

const exportFailures = repeatedFailureLog('trace export failed; spans are dropped and counted');

/**
 * The OTLP exporter, saying why an export failed (refused connection, the collector's status,
 * a timeout): the processor's counter only says that it did. At most a line a minute while the
 * collector stays away, and one when it takes spans again.
 */
type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];
// ExportResultCode.SUCCESS, from @opentelemetry/core, which is not a dependency of its own here.
const EXPORT_SUCCESS = 0;

class LoggedExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === EXPORT_SUCCESS) exportFailures.succeeded('otlp');
      else exportFailures.failed('otlp', exportCause(result.error), { spans: spans.length });
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The exporter's error with the collector's HTTP status, which it keeps as a numeric `code`. */
function exportCause(error: Error | undefined): unknown {
  if (!error) return 'export failed';
  const status = (error as { code?: unknown }).code;
  return typeof status === 'number' ? `HTTP ${status}: ${error.message}` : error;
}

/** A meter provider whose only live instrument is the processor's processed-spans counter. */
function countingMeterProvider(counts: TelemetryCounts): MeterProvider {
  const noop = createNoopMeter();
  const processed: Counter = {
    add(value: number, attributes?: Attributes) {
      const errorType = attributes?.[ATTR_ERROR_TYPE];
      if (errorType === undefined) counts.exported += value;
      else if (errorType === 'queue_full') counts.queueFull += value;
      else counts.exportFailed += value;
    },
  };
  const meter: Meter = Object.assign(Object.create(noop) as Meter, {
    createCounter: (name: string) => (name === PROCESSED_SPANS ? processed : noop.createCounter(name)),
  });
  return { getMeter: () => meter };
}
