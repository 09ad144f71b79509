import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as a collector received it over OTLP/HTTP JSON, with its attributes decoded. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** OTLP's enum: 1 is INTERNAL. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** OTLP's enum: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

/**
 * An OTLP/HTTP trace receiver for tests: `ok` decodes and keeps what arrives, `fail` answers
 * 500, `hang` holds each request until release() (or close()).
 */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Requests received, whatever the answer. */
  requests: number;
  /** The headers of the last request. */
  headers: http.IncomingHttpHeaders;
  mode: 'ok' | 'fail' | 'hang';
  release(): void;
  close(): Promise<void>;
}

export async function startOtlpReceiver(mode: OtlpReceiver['mode'] = 'ok'): Promise<OtlpReceiver> {
  const held: http.ServerResponse[] = [];
  const receiver: OtlpReceiver = {
    url: '',
    spans: [],
    requests: 0,
    headers: {},
    mode,
    release() {
      for (const res of held.splice(0)) res.writeHead(500).end();
    },
    close: () =>
      new Promise((resolve) => {
        receiver.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests++;
      receiver.headers = req.headers;
      if (receiver.mode === 'hang') {
        held.push(res);
        return;
      }
      if (receiver.mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const raw = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      receiver.spans.push(...decodeTraces(JSON.parse(text)));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

/** An ExportTraceServiceRequest in OTLP/JSON (hex ids, attributes as typed values) as flat spans. */
function decodeTraces(body: {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
}): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = decodeAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          name: span.name as string,
          traceId: span.traceId as string,
          spanId: span.spanId as string,
          parentSpanId: (span.parentSpanId as string | undefined) || null,
          kind: span.kind as number,
          startTimeUnixNano: BigInt(String(span.startTimeUnixNano)),
          endTimeUnixNano: BigInt(String(span.endTimeUnixNano)),
          statusCode: (span.status as { code?: number } | undefined)?.code ?? 0,
          attributes: decodeAttributes(span.attributes as KeyValue[] | undefined),
          resource,
        });
      }
    }
  }
  return out;
}

function decodeAttributes(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

function decodeValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return null;
}
