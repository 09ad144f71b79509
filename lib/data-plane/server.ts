import http from 'node:http';
import { json, responseText } from '../api/define-route';
import { env } from '../env';
import { boundedBodies } from '../api/json-body';
import { log } from '../log';
import { matchDataPlaneRoute } from './routes';

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/**
 * The data plane: a bare node:http server that turns each runtime request into a Web Request,
 * runs the shared handler and writes its Response back. Anything else goes to `fallback`
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
      void send(res, json({ error: { code: 'not_found', message: `${req.method} ${pathname} is not served by this data-plane instance.` } }, 404));
      return;
    }
    void (async () => {
      try {
        const { request, truncated } = await toWebRequest(req);
        const response = await matched.route.handler(request, { params: matched.params });
        // The rest of an oversized body was never read: the connection cannot carry another
        // request, so tell the client not to reuse it.
        if (truncated) res.setHeader('connection', 'close');
        await send(res, response);
      } catch (error) {
        log.error('data plane failure', { path: pathname, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        if (!res.headersSent) await send(res, json({ error: { code: 'internal', message: 'An unexpected error occurred.' } }, 500));
        else res.destroy();
      }
    })();
  });
  // Agents keep connections open between tool calls.
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * The Web Request the shared handler expects. The body is read here with Node's streams, which
 * cost far less than a web stream per call, and only up to one byte past the limit: a larger
 * body reaches the handler one byte too long, so its own check answers 413 as it does under
 * Next, and we never buffer more than the limit whatever Content-Length claims.
 */
async function toWebRequest(req: http.IncomingMessage): Promise<{ request: Request; truncated: boolean }> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? 'GET';
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  if (method === 'GET' || method === 'HEAD') return { request: new Request(url, { method, headers }), truncated: false };
  const limit = env().TOOLGATE_MAX_BODY_BYTES + 1;
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const room = limit - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= limit) {
        // Stop reading, without destroying the socket the 413 still has to go out on.
        req.off('data', onData);
        req.pause();
        resolve();
      }
    };
    req.on('data', onData);
    req.once('end', resolve);
    req.once('error', reject);
  });
  // The declared length no longer describes the body we pass on.
  headers.delete('content-length');
  const request = new Request(url, { method, headers, body: Buffer.concat(chunks, size) });
  boundedBodies.add(request);
  return { request, truncated: size >= limit };
}

async function send(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const text = responseText.get(response);
  const body = text !== undefined ? Buffer.from(text) : response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}
