import http from 'node:http';
import https from 'node:https';
import { setMaxListeners } from 'node:events';
import { Readable } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const agents = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function agentsFor(allowPrivate: boolean) {
  let pair = agents.get(allowPrivate);
  if (!pair) {
    const filter = { allowPrivateIPAddress: allowPrivate, allowMetaIPAddress: false, keepAlive: true };
    pair = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
    agents.set(allowPrivate, pair);
  }
  return pair;
}

/**
 * The fetch the hosted gateway gives the SDK's Streamable HTTP client: every connection goes
 * through the same address filter as webhook deliveries (the address DNS returned is checked at
 * connect time, so a name rebound to 169.254.169.254 or 10.0.0.1 is refused), redirects are not
 * followed, and a response body past `maxBytes` is cut off with an error instead of buffered.
 *
 * A POST (one JSON-RPC message and its answer, JSON or an event stream) ends after
 * `requestTimeoutMs` whatever the upstream does: the SDK's request timeout only gives up on the
 * answer, and the socket stayed open for as long as a hanging upstream kept it (30 hung calls
 * left 31 connections open). Other requests (the SDK's long-lived GET event stream) are not bound.
 */
export function guardedFetch(options: { allowPrivate: boolean; maxBytes: number; requestTimeoutMs?: number }): FetchLike {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        reject(new TypeError(`unsupported protocol ${url.protocol}`));
        return;
      }
      const secure = url.protocol === 'https:';
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const body = typeof init.body === 'string' ? init.body : init.body instanceof Uint8Array ? Buffer.from(init.body) : undefined;
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const request = (secure ? https : http).request(
        url,
        { method: init.method ?? 'GET', headers, agent: agentsFor(options.allowPrivate)[secure ? 'https' : 'http'] },
        (response) => {
          const status = response.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) for (const item of value) responseHeaders.append(key, item);
            else if (value !== undefined) responseHeaders.set(key, value);
          }
          if (status === 204 || status === 304 || init.method === 'HEAD') {
            response.resume();
            resolve(new Response(null, { status, headers: responseHeaders }));
            return;
          }
          const tooLarge = () => new Error(`the upstream's answer exceeded ${options.maxBytes} bytes`);
          // An event stream is passed on as it arrives; any other answer (JSON, the usual case) is
          // read whole first, which costs far less than a Web stream over Node's.
          if ((responseHeaders.get('content-type') ?? '').includes('text/event-stream')) {
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > options.maxBytes) response.destroy(tooLarge());
            });
            const stream = Readable.toWeb(response) as ReadableStream<Uint8Array>;
            resolve(new Response(stream, { status, statusText: response.statusMessage, headers: responseHeaders }));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) response.destroy(tooLarge());
            else chunks.push(chunk);
          });
          response.once('error', reject);
          response.once('end', () =>
            resolve(new Response(Buffer.concat(chunks, size), { status, statusText: response.statusMessage, headers: responseHeaders })),
          );
        },
      );
      const abort = () => request.destroy(init.signal?.reason instanceof Error ? init.signal.reason : new Error('aborted'));
      if (init.signal?.aborted) abort();
      // The transport passes one signal to all its requests: many calls in flight at once are
      // expected, not a listener leak.
      if (init.signal) setMaxListeners(0, init.signal);
      init.signal?.addEventListener('abort', abort, { once: true });
      const deadline =
        options.requestTimeoutMs !== undefined && (init.method ?? 'GET') === 'POST'
          ? setTimeout(
              () => request.destroy(new Error(`the upstream did not finish answering within ${options.requestTimeoutMs} ms`)),
              options.requestTimeoutMs,
            )
          : undefined;
      deadline?.unref();
      // After the answer ends (also an event stream read to its end) or the connection goes.
      request.once('close', () => {
        clearTimeout(deadline);
        init.signal?.removeEventListener('abort', abort);
      });
      request.once('error', reject);
      request.end(body);
    });
}
