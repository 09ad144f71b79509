import http from 'node:http';
import net from 'node:net';
import { jsonResult, type RouteResult } from '../api/define-route';
import type { IncomingCall } from '../api/incoming-call';
import { tooLarge } from '../api/json-body';
import { HTTP_METHODS, type HttpMethod } from '../api/http-methods';
import {
  badRequestTarget,
  malformedPath,
  methodNotAllowed,
  pathNotFound,
  SERVER_ACTION_BODY_MAX,
  serverActionTooLarge,
} from '../api/mount-route';
import { API_SECURITY_HEADERS } from '../http/security-headers';
import { CLIENT_ADDRESS_HEADER, clientAddress, type TrustedProxies } from '../http/client-address';
import { noteSignInLimited } from '../auth/sign-in-limited-log';
import { AUTH_BASE_PATH } from '../auth/auth-routes';
import { log } from '../log';
import { AppError } from '../errors';
import { matchDataPlaneRoute } from './routes';
import { decodePercent } from '../api/match-route';
import { answerClientError, answerConnect, requestTarget, type RequestTarget } from './client-errors';
import { isServerAction, undeclaredSize, withReadBody } from './server-action-body';

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/**
 * The data plane: a bare node:http server that runs the shared handlers' `serve` on Node's own
 * request and writes their answer straight to the socket. Anything else goes to `fallback`
 * (Next, in the default one-process mode) or gets a JSON 404 when running data-plane only.
 */
export function createDataPlaneServer(
  options: {
    fallback?: NodeHandler;
    apiAllowedMethods?: (pathname: string) => HttpMethod[] | null;
    /** How long a request's headers, and the whole request, may take to arrive (tests shorten them). */
    headersTimeoutMs?: number;
    requestTimeoutMs?: number;
    /** Proxies whose X-Forwarded-For names the caller that Next (Better Auth) is told of. */
    trustedProxies?: TrustedProxies;
  } = {},
): http.Server {
  const trustedProxies = options.trustedProxies ?? [];
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const timeouts = {
    headersTimeout: Math.min(options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout),
    requestTimeout,
    // How often Node looks for requests past those (its default, 30 s, would let one run on that long).
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, requestTimeout / 4)),
  };
  const server = http.createServer(timeouts, (req, res) => {
    // Stopping: each answer closes its connection, so a client with a connection kept alive
    // sends its next call to another instance instead of to one about to exit.
    if (draining.has(server)) res.setHeader('connection', 'close');
    const target = requestTarget(req.url ?? '/');
    if (!('path' in target)) {
      answerOtherTarget(req, res, target);
      return;
    }
    req.url = target.path;
    if (target.host) req.headers.host = target.host;
    const pathname = target.path.split('?', 1)[0] ?? '/';
    const matched = matchDataPlaneRoute(req.method ?? 'GET', pathname);
    if (!matched || 'allowed' in matched) {
      // Next answers a path whose percent-encoding does not decode (`/traces/%E0%A4%A`) with a
      // bare 500 when it reaches a dynamic segment: no route can serve such a path, so say so here.
      if (decodePercent(pathname) === null) {
        void send(res, malformedPath(pathname, headerValue(req, 'x-request-id')));
        return;
      }
      // A method Next cannot take (TRACE fails building its Request: a 500, logged with a stack;
      // PROPFIND and the like get an empty 400) is answered here, never passed on.
      if (options.fallback && !NEXT_METHODS.has(req.method ?? '')) {
        void send(res, unservedMethod(req, pathname, matched?.allowed ?? options.apiAllowedMethods?.(pathname) ?? null));
        return;
      }
      // Next serves the same paths with the same methods or more (the route files mount these
      // handlers too), so in one-process mode it gives the 405 or the answer.
      // Next answers a Server Action body past its limit with a bare 500 (logged as an error);
      // one that says so in its Content-Length is refused here, unread, as the API refuses one.
      const action = options.fallback !== undefined && isServerAction(req);
      if (action && declaredLength(req) > SERVER_ACTION_BODY_MAX) {
        void send(res, serverActionTooLarge(headerValue(req, 'x-request-id')));
        return;
      }
      if (options.fallback) {
        const caller = clientAddress(req.socket.remoteAddress, headerValue(req, 'x-forwarded-for') ?? undefined, trustedProxies);
        if (caller) req.headers[CLIENT_ADDRESS_HEADER] = caller;
        else delete req.headers[CLIENT_ADDRESS_HEADER];
        if (pathname.startsWith(`${AUTH_BASE_PATH}/`))
          res.once('finish', () => res.statusCode === 429 && noteSignInLimited(caller, pathname));
        // One whose size is known only as it arrives (chunked) is read here up to the limit, so
        // that one past it gets the same 413; one within it is handed on whole.
        if (action && undeclaredSize(req)) void handOnServerAction(req, res, options.fallback);
        else void options.fallback(req, res);
        return;
      }
      if (matched) {
        const allow = matched.allowed.join(', ');
        if (req.method === 'OPTIONS') res.writeHead(204, { allow, ...API_SECURITY_HEADERS }).end();
        else void send(res, methodNotAllowed(req.method ?? '', pathname, matched.allowed, headerValue(req, 'x-request-id')));
        return;
      }
      void send(
        res,
        jsonResult({ error: { code: 'not_found', message: `${req.method} ${pathname} is not served by this data-plane instance.` } }, 404),
      );
      return;
    }
    void (async () => {
      try {
        const call = new NodeCall(req, res);
        const result = await matched.route.handler.serve(call, matched.params);
        // A body not read to its end (oversized, or refused before reading) would have to be
        // drained before the next request on this connection: close it instead. So does an
        // answer given after a stop began (a long poll that was waiting when it came).
        if (call.unread() || !req.complete || draining.has(server)) res.setHeader('connection', 'close');
        await send(res, result);
      } catch (error) {
        log.error('data plane failure', { path: pathname, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        if (!res.headersSent) await send(res, jsonResult({ error: { code: 'internal', message: 'An unexpected error occurred.' } }, 500));
        else res.destroy();
      }
    })();
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  // Agents keep connections open between tool calls.
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * Reads a Server Action's body of undeclared size up to SERVER_ACTION_BODY_MAX (what Next itself
 * would hold): past it, the 413 a declared size gets, the rest left unread; within it, Next gets
 * the request with that body. A caller gone mid-body gets no answer.
 */
async function handOnServerAction(req: http.IncomingMessage, res: http.ServerResponse, fallback: NodeHandler): Promise<void> {
  const body = await readBody(req, SERVER_ACTION_BODY_MAX).catch(() => undefined);
  if (body === undefined) {
    res.destroy();
    return;
  }
  if (body === null) {
    await send(res, serverActionTooLarge(headerValue(req, 'x-request-id')));
    return;
  }
  await fallback(withReadBody(req, Buffer.concat(body.chunks, body.size)), res);
}

/** The body's length as its Content-Length states it (0 when absent or not a number). */
function declaredLength(req: http.IncomingMessage): number {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) ? length : 0;
}

/** `OPTIONS *` asks about the server as a whole: nothing to say beyond 204. Anything else has no path to serve. */
function answerOtherTarget(req: http.IncomingMessage, res: http.ServerResponse, target: Exclude<RequestTarget, { path: string }>): void {
  if ('asterisk' in target && req.method === 'OPTIONS') {
    res.writeHead(204, { ...API_SECURITY_HEADERS }).end();
    return;
  }
  const message =
    'asterisk' in target
      ? `The request target * is for OPTIONS only, not ${String(req.method).slice(0, 20)}.`
      : 'The request target must be a path (/…) or an absolute http(s) URL.';
  void send(res, badRequestTarget(message, headerValue(req, 'x-request-id')));
}

/**
 * A request whose headers have not all arrived after HEADERS_TIMEOUT_MS, or that is not all
 * there after REQUEST_TIMEOUT_MS, is answered 408 and its connection closed. Node's defaults
 * (60 s and 300 s) let a caller that trickles a body hold a connection, and its buffers, for five
 * minutes; agents send bodies of at most a megabyte at once. Answers may take longer (the
 * approvals long poll): only the request's arrival is timed.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

const draining = new WeakSet<http.Server>();

/**
 * How long a stopping server keeps its idle kept-alive connections. An agent between two calls
 * holds one; closing it at once races the call already on its way on it, which the agent sees as
 * a reset connection for a call it cannot know was not made. Within this time such a call is
 * answered (with `Connection: close`); after it, the connections still idle are closed.
 */
export const DRAIN_GRACE_MS = 5_000;

/**
 * Stops taking connections: a call on a kept-alive connection is still answered, with
 * `Connection: close`; connections left idle close after `graceMs`. `onClosed` runs once the
 * last connection has gone.
 */
export function drainDataPlaneServer(server: http.Server, onClosed: () => void, graceMs = DRAIN_GRACE_MS): void {
  draining.add(server);
  // net.Server's close stops listening; http.Server's would also close every idle connection at
  // once (Node 19 and later), which is the race above.
  net.Server.prototype.close.call(server, () => onClosed());
  setTimeout(() => server.closeIdleConnections(), graceMs).unref();
}

/** The methods a Next route file can export; Next cannot route any other. */
const NEXT_METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

/**
 * The answer to a method Next cannot route: on an API path, that route's 405 with its Allow and
 * the envelope; on an API path no route serves, 404; on a page, 405 (pages are read with GET).
 */
function unservedMethod(req: http.IncomingMessage, pathname: string, allowed: HttpMethod[] | null): RouteResult {
  const requestId = headerValue(req, 'x-request-id');
  if (allowed) return methodNotAllowed(req.method ?? '', pathname, allowed, requestId);
  if (pathname === '/api' || pathname.startsWith('/api/')) return pathNotFound(pathname, requestId);
  return methodNotAllowed(req.method ?? '', pathname, ['GET', 'HEAD'], requestId);
}

/**
 * The shared handler's view of a Node request. The body is read with Node's streams and only
 * up to one byte past the limit, whatever Content-Length claims, so an oversized body is
 * refused with the same 413 as under Next without ever being buffered.
 *
 * A class, not an object of closures: one allocation per call instead of one per method (and
 * under tsx, in dev and tests, every named closure also costs an Object.defineProperty). The
 * header map, the URL and the abort signal are made only when first asked for.
 */
class NodeCall implements IncomingCall {
  readonly method: string;
  private byName: Map<string, string> | undefined;
  private absoluteUrl: string | undefined;
  private unreadBody = false;
  private aborted: AbortController | undefined;

  constructor(
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
  ) {
    this.method = req.method ?? 'GET';
  }

  // Made only when a handler asks (the approvals long poll): a listener per call otherwise.
  get signal(): AbortSignal {
    if (!this.aborted) {
      const controller = new AbortController();
      this.res.once('close', () => {
        if (!this.res.writableFinished) controller.abort();
      });
      this.aborted = controller;
    }
    return this.aborted.signal;
  }

  get url(): string {
    // Not built from the Host header, which a client sends as it likes: "a b", "%" or "[::1" made
    // the URL unparseable (a 500 on every route that read its query), "x#" moved the query into a
    // fragment. The routes read only the path and query from it.
    return (this.absoluteUrl ??= `http://localhost${this.req.url ?? '/'}`);
  }

  /** Whether a body was left unread (oversized, or refused before reading). */
  unread(): boolean {
    return this.unreadBody;
  }

  // Every value of a repeated header, joined by ", " as Headers.get joins them (Node's own
  // req.headers keeps only the first of some, such as Authorization).
  header(name: string): string | null {
    if (!this.byName) {
      const byName = new Map<string, string>();
      const raw = this.req.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const key = (raw[i] as string).toLowerCase();
        const value = raw[i + 1] as string;
        const previous = byName.get(key);
        byName.set(key, previous === undefined ? value : `${previous}, ${value}`);
      }
      this.byName = byName;
    }
    return this.byName.get(name) ?? null;
  }

  headers(): Headers {
    const headers = new Headers();
    const raw = this.req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
    return headers;
  }

  async bodyBytes(maxBytes: number): Promise<Buffer> {
    const declared = Number(this.header('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      this.unreadBody = true;
      throw tooLarge(maxBytes);
    }
    const body = await readBody(this.req, maxBytes);
    if (body === null) {
      this.unreadBody = true;
      throw tooLarge(maxBytes);
    }
    const { chunks, size } = body;
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  }
}

/**
 * Collects a body up to `maxBytes`; past it, stops reading and resolves with null.
 */
function readBody(req: http.IncomingMessage, maxBytes: number): Promise<{ chunks: Buffer[]; size: number } | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        // Stop reading, without destroying the socket the 413 still has to go out on.
        over = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? null : { chunks, size }));
    // The caller went away mid-body (ECONNRESET "aborted", which read as a database outage in
    // the log): a bad request of the caller's making, never answered, not logged as an error.
    req.once('error', () =>
      reject(new AppError('bad_request', 'The request body ended before it was complete.', { reason: 'body_incomplete' })),
    );
  });
}

function headerValue(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

async function send(res: http.ServerResponse, result: RouteResult): Promise<void> {
  if (!('response' in result)) {
    // The headers object is this answer's own (jsonResult builds a new one per call).
    result.headers['content-length'] = String(Buffer.byteLength(result.text));
    Object.assign(result.headers, API_SECURITY_HEADERS);
    res.writeHead(result.status, result.headers);
    res.end(result.text);
    return;
  }
  // A handler that built its own Response (none of the runtime endpoints do today).
  const { response } = result;
  const headers: Record<string, string> = { ...API_SECURITY_HEADERS };
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}
