import http from 'node:http';
import { Readable } from 'node:stream';
import { json } from '../api/define-route';
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
        const response = await matched.route.handler(toWebRequest(req), { params: matched.params });
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

function toWebRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    // Streamed, so the shared handler's byte cap applies while reading, as it does under Next.
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

async function send(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}
