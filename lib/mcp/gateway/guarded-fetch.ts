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
export function guardedFetch(options: {
  allowPrivate: boolean;
  maxBytes: number;
  requestTimeoutMs?: number;
  /**
   * Each JSON-RPC message text of an answer (a JSON body, an event's data) before the SDK parses
   * it: the text to pass on instead, or null to drop it (upstream-numbers.ts).
   */
  screen?: (text: string) => string | null;
}): FetchLike {
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
            const screen = options.screen;
            resolve(
              new Response(screen ? stream.pipeThrough(screenedEvents(screen)) : stream, {
                status,
                statusText: response.statusMessage,
                headers: responseHeaders,
              }),
            );
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
          response.once('end', () => {
            const whole = Buffer.concat(chunks, size);
            let body: Buffer | string = whole;
            if (options.screen && /\bjson\b/i.test(responseHeaders.get('content-type') ?? '')) {
              const text = whole.toString('utf8');
              const screened = options.screen(text);
              if (screened !== text) {
                // Nothing left of it: an empty batch, which the SDK reads as no messages.
                body = screened ?? '[]';
                responseHeaders.delete('content-length');
              }
            }
            resolve(new Response(body as BodyInit, { status, statusText: response.statusMessage, headers: responseHeaders }));
          });
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

/**
 * An event stream with each event's data screened: an event whose data `screen` leaves as it is
 * passes unchanged; one whose data it replaces is sent with the new data (its other fields, such
 * as its id, kept); one whose data it drops is sent without data, which a reader skips. Holds at
 * most one event at a time (and the stream as a whole is bounded by the guarded fetch).
 */
export function screenedEvents(screen: (text: string) => string | null): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let lines: string[] = [];
  const dispatch = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const event = lines;
    lines = [];
    const data: string[] = [];
    for (const line of event) if (line === 'data' || line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    let out = event;
    if (data.length > 0) {
      const text = data.join('\n');
      const screened = screen(text);
      if (screened !== text) {
        out = event.filter((line) => !(line === 'data' || line.startsWith('data:')));
        if (screened !== null) out.push(`data: ${screened}`);
      }
    }
    controller.enqueue(encoder.encode(`${out.join('\n')}\n\n`));
  };
  // The line being read, in pieces (a long data line arrives in many chunks), and whether the last chunk ended in CR.
  let partial: string[] = [];
  let afterCR = false;
  const take = (text: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    let at = afterCR && text.charCodeAt(0) === 10 ? 1 : 0;
    afterCR = false;
    // The next LF and CR at or after `at` (-1: none left), each found once by indexOf.
    let lf = -2;
    let cr = -2;
    for (;;) {
      if (lf !== -1 && lf < at) lf = text.indexOf('\n', at);
      if (cr !== -1 && cr < at) cr = text.indexOf('\r', at);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      partial.push(text.slice(at, end));
      const line = partial.length === 1 ? partial[0]! : partial.join('');
      partial = [];
      at = end + 1;
      if (end === cr) {
        if (at === text.length) afterCR = true;
        else if (text.charCodeAt(at) === 10) at++;
      }
      if (line !== '') lines.push(line);
      else if (lines.length > 0) dispatch(controller);
    }
    if (at < text.length) partial.push(text.slice(at));
  };
  return new TransformStream({
    transform(chunk, controller) {
      take(decoder.decode(chunk, { stream: true }), controller);
    },
    flush(controller) {
      take(decoder.decode(), controller);
      // An event the stream ended in the middle of is dropped, as a reader drops it (never passed on unscreened).
    },
  });
}
