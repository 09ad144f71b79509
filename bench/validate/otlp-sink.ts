// A collector that accepts OTLP/HTTP JSON trace exports and discards them, counting the spans:
// the far end of the "tracing on" row of npm run bench, so that row measures what exporting
// costs Toolgate and not what a real collector does with the spans.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  /** Spans received so far. */
  spans(): number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let spans = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // One "spanId" key per span (parents are "parentSpanId"): counted without parsing.
      spans += Buffer.concat(chunks).toString('utf8').split('"spanId":').length - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
