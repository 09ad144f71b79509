import { requestIdFrom } from './request-id';
import { jsonResult, toResponse, type RouteResult } from './define-route';
import { allowedMethods, HTTP_METHODS, type DeclaredMethod, type HttpMethod } from './http-methods';

type RouteContext = { params?: Promise<Record<string, string | string[]>> | Record<string, string | string[]> };
export type WebRouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

/**
 * A route file's exports for every method: the declared handlers, HEAD answered like GET, OPTIONS
 * naming what is allowed, and the `method_not_allowed` envelope with an `Allow` header for the
 * rest. Next's own answer for a method a route file does not export is an empty 405 with no
 * Allow header, so every route file exports all of them:
 *
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listX, POST: createX });
 */
export function mountRoute(handlers: Partial<Record<DeclaredMethod, WebRouteHandler>>): Record<HttpMethod, WebRouteHandler> {
  const allowed = allowedMethods(Object.keys(handlers) as DeclaredMethod[]);
  const allow = allowed.join(', ');
  const refuse: WebRouteHandler = async (request) =>
    toResponse(methodNotAllowed(request.method, new URL(request.url).pathname, allowed, request.headers.get('x-request-id')));
  const get = handlers.GET;
  return {
    GET: get ?? refuse,
    // The GET answer without its body, as HTTP wants HEAD to be.
    HEAD: get
      ? async (request, context) => {
          const response = await get(new Request(request, { method: 'GET' }), context);
          await response.body?.cancel();
          return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
        }
      : refuse,
    POST: handlers.POST ?? refuse,
    PUT: handlers.PUT ?? refuse,
    PATCH: handlers.PATCH ?? refuse,
    DELETE: handlers.DELETE ?? refuse,
    // No Access-Control-* headers: cross-origin browser calls are never allowed (docs/security.md).
    OPTIONS: async () => new Response(null, { status: 204, headers: { allow } }),
  };
}

/** What `mountRouteTable` needs of a match (lib/api/match-route.ts). */
interface TableMatch {
  group: { routes: ReadonlyMap<string, { handler: WebRouteHandler }> };
  params: Record<string, string>;
}

/**
 * The exports of a catch-all route file serving a whole route table: each request goes to the
 * routes of its path's template, mounted as `mountRoute` mounts a route file (so HEAD, OPTIONS
 * and the 405 answer the same), and a path no template matches gets the 404 envelope.
 */
export function mountRouteTable(match: (pathname: string) => TableMatch | null): Record<HttpMethod, WebRouteHandler> {
  const mounted = new WeakMap<TableMatch['group'], Record<HttpMethod, WebRouteHandler>>();
  const dispatch =
    (method: HttpMethod): WebRouteHandler =>
    async (request) => {
      const pathname = new URL(request.url).pathname;
      const matched = match(pathname);
      if (!matched) return toResponse(pathNotFound(pathname, request.headers.get('x-request-id')));
      let routes = mounted.get(matched.group);
      if (!routes) {
        routes = mountRoute(Object.fromEntries([...matched.group.routes].map(([declared, route]) => [declared, route.handler])));
        mounted.set(matched.group, routes);
      }
      return routes[method](request, { params: matched.params });
    };
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, dispatch(method)])) as Record<HttpMethod, WebRouteHandler>;
}

/** The 404 envelope for an API path no route serves, shared by Next's catch-all and the data-plane server. */
export function pathNotFound(path: string, incomingRequestId: string | null): RouteResult {
  const requestId = requestIdFrom(incomingRequestId);
  return jsonResult(
    { error: { code: 'not_found', message: `Nothing is served at ${path.slice(0, 200)}.` }, request_id: requestId },
    404,
    undefined,
    requestId,
  );
}

/** The 400 for a path whose percent-encoding does not decode: no route can serve it. */
export function malformedPath(path: string, incomingRequestId: string | null): RouteResult {
  return badRequestTarget(`The path ${path.slice(0, 200)} is not valid percent-encoded UTF-8.`, incomingRequestId);
}

/**
 * The most a Server Action's body may hold: Next's own limit (serverActions.bodySizeLimit, 1 MB by
 * default, not changed in next.config.js). Past it Next answers a bare 500.
 */
export const SERVER_ACTION_BODY_MAX = 1024 * 1024;

/** A Server Action whose declared body is past SERVER_ACTION_BODY_MAX: 413 payload_too_large. */
export function serverActionTooLarge(incomingRequestId: string | null): RouteResult {
  const requestId = requestIdFrom(incomingRequestId);
  return jsonResult(
    {
      error: {
        code: 'payload_too_large',
        message: `The form's body exceeds the limit of ${SERVER_ACTION_BODY_MAX} bytes.`,
        details: { max_bytes: SERVER_ACTION_BODY_MAX },
      },
      request_id: requestId,
    },
    413,
    { connection: 'close' },
    requestId,
  );
}

/** A request target no route can serve, whatever the method: 400 bad_request saying why. */
export function badRequestTarget(message: string, incomingRequestId: string | null): RouteResult {
  const requestId = requestIdFrom(incomingRequestId);
  return jsonResult({ error: { code: 'bad_request', message }, request_id: requestId }, 400, undefined, requestId);
}

/** The 405 envelope, shared by Next's route files and the data-plane server. */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[], incomingRequestId: string | null): RouteResult {
  const requestId = requestIdFrom(incomingRequestId);
  const shown = method.length > 20 ? `${method.slice(0, 20)}…` : method;
  const body = {
    error: {
      code: 'method_not_allowed',
      message: `${shown} is not allowed on ${path.slice(0, 200)}; use ${allowed.join(', ')}.`,
      details: { allowed_methods: allowed },
    },
    request_id: requestId,
  };
  return jsonResult(body, 405, { allow: allowed.join(', ') }, requestId);
}
