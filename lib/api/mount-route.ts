import { randomUUID } from 'node:crypto';
import { jsonResult, type RouteResult } from './define-route';

/** Every method a Next route file can export. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The methods a route declares; HEAD follows GET and OPTIONS is answered for every route. */
export type DeclaredMethod = Exclude<HttpMethod, 'HEAD' | 'OPTIONS'>;

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
  const refuse: WebRouteHandler = async (request) => toResponse(methodNotAllowed(request.method, new URL(request.url).pathname, allowed, request.headers.get('x-request-id')));
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

/** What a route with these declared methods allows, in a fixed order. */
export function allowedMethods(declared: readonly string[]): HttpMethod[] {
  return HTTP_METHODS.filter((method) => declared.includes(method) || (method === 'HEAD' && declared.includes('GET')) || method === 'OPTIONS');
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The 405 envelope, shared by Next's route files and the data-plane server. */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[], incomingRequestId: string | null): RouteResult {
  const requestId = incomingRequestId && REQUEST_ID.test(incomingRequestId) ? incomingRequestId : randomUUID();
  const shown = method.length > 20 ? `${method.slice(0, 20)}…` : method;
  const body = {
    error: { code: 'method_not_allowed', message: `${shown} is not allowed on ${path.slice(0, 200)}; use ${allowed.join(', ')}.`, details: { allowed_methods: allowed } },
    request_id: requestId,
  };
  return jsonResult(body, 405, { allow: allowed.join(', ') }, requestId);
}

function toResponse(result: RouteResult): Response {
  return 'response' in result ? result.response : new Response(result.text, { status: result.status, headers: result.headers });
}
