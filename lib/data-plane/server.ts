import http from 'node:http';
import { jsonResult, type IncomingCall, type RouteResult } from '../api/define-route';
import { tooLarge } from '../api/json-body';
import { log } from '../log';
import { matchDataPlaneRoute } from './routes';

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/**
 * The data plane: a bare node:http server that runs the shared handlers' `serve` on Node's own
 * request and writes their answer straight to the socket. Anything else goes to `fallback`
 * (Next, in the default one-process mode) or gets a JSON 404 when running data-plane only.
 */
export function createDataPlaneServer(options: { fallback?: NodeHandler } = {}): http.Server {
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const matched = matchDataPlaneRoute(req.method ?? 'GET', pathname);
    if (!matched) {
      if (options.fallback) {
        void options.fallback(req, res);
        return;
      }
      void send(res, jsonResult({ error: { code: 'not_found', message: `${req.method} ${pathname} is not served by this data-plane instance.` } }, 404));
      return;
    }
    void (async () => {
      try {
        const call = nodeCall(req);
        const result = await matched.route.handler.serve(call, matched.params);
        // A body not read to its end (oversized, or refused before reading) would have to be
        // drained before the next request on this connection: close it instead.
        if (call.unread() || !req.complete) res.setHeader('connection', 'close');
        await send(res, result);
      } catch (error) {
        log.error('data plane failure', { path: pathname, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        if (!res.headersSent) await send(res, jsonResult({ error: { code: 'internal', message: 'An unexpected error occurred.' } }, 500));
        else res.destroy();
      }
    })();
  });
  // Agents keep connections open between tool calls.
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * The shared handler's view of a Node request. The body is read with Node's streams and only
 * up to one byte past the limit, whatever Content-Length claims, so an oversized body is
 * refused with the same 413 as under Next without ever being buffered.
 */
function nodeCall(req: http.IncomingMessage): IncomingCall & { unread(): boolean } {
  let unread = false;
  return {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    // headersDistinct keeps every value of a repeated header, joined as Headers.get joins them.
    header: (name) => req.headersDistinct[name]?.join(', ') ?? null,
    headers: () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
      return headers;
    },
    unread: () => unread,
    bodyText: async (maxBytes) => {
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        unread = true;
        throw tooLarge(maxBytes);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            // Stop reading, without destroying the socket the 413 still has to go out on.
            req.off('data', onData);
            req.pause();
            unread = true;
            resolve();
            return;
          }
          chunks.push(chunk);
        };
        req.on('data', onData);
        req.once('end', resolve);
        req.once('error', reject);
      });
      if (unread) throw tooLarge(maxBytes);
      return Buffer.concat(chunks, size).toString('utf8');
    },
  };
}

async function send(res: http.ServerResponse, result: RouteResult): Promise<void> {
  if (!('response' in result)) {
    res.writeHead(result.status, { ...result.headers, 'content-length': String(Buffer.byteLength(result.text)) });
    res.end(result.text);
    return;
  }
  // A handler that built its own Response (none of the runtime endpoints do today).
  const { response } = result;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}
