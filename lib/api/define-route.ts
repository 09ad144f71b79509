import { z } from 'zod';
import { requestIdFrom, requestIdsFrom } from './request-id';
import type { FirstRecordId } from '../evidence/first-record-id';
import { env } from '../env';
import { authenticateApiKey } from '../auth/api-keys';
import { hasScope, type ApiKeyScope } from '../auth/api-key-scopes';
import type { Caller } from '../auth/caller';

export type { Caller };
import { getSessionMember } from '../auth/session';
import { TENANT_FIELD, TENANT_HEADER } from '../auth/page-tenant';
import { can, type Permission } from '../tenants/roles';
import { AppError } from '../errors';
import { readBodyBytes, readJsonBody } from './json-body';
import { NO_QUERY } from './no-query';
import type { IncomingCall } from './incoming-call';
import { log } from '../log';
import { isUniqueViolation } from '../db';
import { isSafeMethod } from '../http/same-origin';
import { crossSiteError } from '../http/cross-site-error';
import { parsePathParams, type PathParamsSchema } from './path-params';
import type { DeclaredMethod } from './http-methods';
import { zodIssuePath, zodIssueText } from '../validation/zod-issue-text';

/**
 * The auth an endpoint needs: an API key with a scope, a signed-in user with a permission, or
 * either. `none` is only for public documents such as the contract JSON Schema.
 */
// `apiKey` as a list: any one of the scopes will do (e.g. documents both agents and authors read).
export type AuthRequirement = { apiKey?: ApiKeyScope | readonly ApiKeyScope[]; session?: Permission } | 'none';

/** A handler's answer before it becomes a Web Response or is written to a Node socket. */
export type RouteResult = { status: number; headers: Record<string, string>; text: string } | { response: Response };

export type RouteHandler = ((
  request: Request,
  context?: { params?: Promise<Record<string, string | string[]>> | Record<string, string | string[]> },
) => Promise<Response>) & {
  /** What the OpenAPI document is generated from. */
  readonly spec: RouteSpec;
  /** The same handler without the Web Request/Response round trip (the data plane). */
  readonly serve: (call: IncomingCall, params: Record<string, string>) => Promise<RouteResult>;
};

/** One row of the route table (lib/api/routes.ts): a handler at a method and path template. */
export interface ApiRoute {
  method: DeclaredMethod;
  /** `/api/v1/approvals/{id}`: each `{name}` has a schema in the handler's `params`. */
  path: string;
  summary: string;
  handler: RouteHandler;
  /** Served by the data plane as well as by Next: what agents call on every tool call. */
  dataPlane?: true;
}

export interface RouteSpec {
  auth: AuthRequirement;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: PathParamsSchema;
  response: z.ZodType;
  otherMediaTypes?: Record<string, z.ZodType>;
}

interface RouteDefinition<BS extends z.ZodType | undefined, QS extends z.ZodType | undefined, PS extends PathParamsSchema | undefined> {
  auth: AuthRequirement;
  body?: BS;
  query?: QS;
  /** One schema per `{name}` of the route's path template (lib/api/path-params.ts). */
  params?: PS;
  /** The JSON answer. Checked in tests (TOOLGATE_VALIDATE_RESPONSES=1): agents depend on exact shapes. */
  response: z.ZodType;
  /** Answers in another media type, which the handler returns as its own Response (a CSV download). */
  otherMediaTypes?: Record<string, z.ZodType>;
  handler: (ctx: {
    call: IncomingCall;
    requestId: string;
    /**
     * Set when Toolgate made the request id: pass it on to whatever records the request's
     * evidence, which gives the first record the request id as its own (lib/evidence/first-record-id.ts).
     */
    firstRecordId: FirstRecordId | undefined;
    caller: Caller;
    body: BS extends z.ZodType ? z.infer<BS> : undefined;
    query: QS extends z.ZodType ? z.infer<QS> : undefined;
    params: PS extends PathParamsSchema ? z.infer<PS> : Record<string, never>;
  }) => Promise<Response | JsonResult>;
}

export interface JsonResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The one wrapper every endpoint goes through. It owns: request ids, body limits and JSON
 * parsing, auth and tenant scoping, Zod parsing of query and body, and mapping every failure to
 * the error envelope. The result is a Web-standard `(Request) => Promise<Response>` for Next's
 * route files, with `serve` for servers that have no Web Request to give (the data plane).
 */
export function defineRoute<
  BS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  PS extends PathParamsSchema | undefined = undefined,
>(definition: RouteDefinition<BS, QS, PS>): RouteHandler {
  const serve = async (call: IncomingCall, params: Record<string, string>): Promise<RouteResult> => {
    const { requestId, firstRecordId } = requestIdsFrom(call.header('x-request-id'));
    try {
      const caller = await authenticate(call, definition.auth, requestId);
      // A route without a query schema reads none: whatever query it is sent is refused as a GET
      // route's unknown parameter is, so `?dry_run=1` on a POST is never quietly a real call (a
      // plain search first: the runtime endpoints take no query, and parse no URL for it).
      if (!definition.query && call.url.includes('?')) parseWith(NO_QUERY, queryValues(call.url, call.method), 'query');
      const query = definition.query ? parseWith(definition.query, queryValues(call.url, call.method), 'query') : undefined;
      let body: unknown;
      if (definition.body) {
        const e = env();
        const raw = await readJsonBody(call, { maxBytes: e.TOOLGATE_MAX_BODY_BYTES, maxDepth: e.TOOLGATE_MAX_JSON_DEPTH }, definition.body);
        body = parseWith(definition.body, raw, 'body');
      }
      // Last, as the lookup it stands in for was: a malformed id answers like an unknown one.
      const parsedParams = definition.params ? parsePathParams(definition.params, params) : {};
      const result = await definition.handler({
        call,
        requestId,
        firstRecordId,
        caller: caller as Caller,
        body: body as never,
        query: query as never,
        params: parsedParams as never,
      });
      if (result instanceof Response) {
        result.headers.set('x-request-id', requestId);
        return { response: result };
      }
      if (process.env.TOOLGATE_VALIDATE_RESPONSES === '1') {
        const checked = definition.response.safeParse(result.body);
        if (!checked.success) throw new Error(`response does not match its schema: ${z.prettifyError(checked.error)}`);
      }
      return jsonResult(result.body, result.status ?? 200, result.headers, requestId);
    } catch (error) {
      return errorResult(error, requestId, call);
    }
  };
  const handler = async (
    request: Request,
    context?: { params?: Promise<Record<string, string | string[]>> | Record<string, string | string[]> },
  ) => toResponse(await serve(webCall(request), await resolveParams(context?.params)));
  const { auth, body, query, params, response, otherMediaTypes } = definition;
  return Object.assign(handler, { serve, spec: { auth, body, query, params, response, otherMediaTypes } });
}

/**
 * For endpoints not built with defineRoute (Better Auth's): the `cross_site_request` answer for
 * an unsafe request from another origin, or null to go on. Checked with or without a cookie:
 * a forged sign-in would sign the person into someone else's account.
 */
export function crossSiteRefusal(request: Request): Response | null {
  if (isSafeMethod(request.method)) return null;
  const call = webCall(request);
  const requestId = requestIdFrom(call.header('x-request-id'));
  try {
    refuseCrossSite(call, requestId);
    return null;
  } catch (error) {
    return toResponse(errorResult(error, requestId, call));
  }
}

/**
 * For endpoints not built with defineRoute: what a failure thrown by their handler is answered
 * as, the way a route's is (a database that cannot take the write is a 503 with Retry-After,
 * logged once as such), instead of Next's bare 500.
 */
export function failureResponse(request: Request, error: unknown): Response {
  const call = webCall(request);
  return toResponse(errorResult(error, requestIdFrom(call.header('x-request-id')), call));
}

function webCall(request: Request): IncomingCall {
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name),
    headers: () => request.headers,
    bodyBytes: (maxBytes) => readBodyBytes(request, maxBytes),
    signal: request.signal,
  };
}

/** A route's result as the Web Response Next sends. */
export function toResponse(result: RouteResult): Response {
  return 'response' in result ? result.response : new Response(result.text, { status: result.status, headers: result.headers });
}

async function resolveParams(
  params: Promise<Record<string, string | string[]>> | Record<string, string | string[]> | undefined,
): Promise<Record<string, string>> {
  const resolved = (await params) ?? {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(resolved)) out[key] = Array.isArray(value) ? value.join('/') : value;
  return out;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query'): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((issue) => ({ path: zodIssuePath(issue), message: issue.message }));
    throw new AppError('bad_request', `Invalid ${where}: ${zodIssueText(parsed.error.issues[0])}`, { issues });
  }
  return parsed.data;
}

async function authenticate(call: IncomingCall, requirement: AuthRequirement, requestId: string): Promise<Caller | undefined> {
  if (requirement === 'none') return undefined;
  const header = call.header('authorization');
  if (header !== null) {
    if (!requirement.apiKey) throw new AppError('forbidden', 'This endpoint is for signed-in users, not API keys.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1] ? await authenticateApiKey(match[1]) : null;
    if (!key)
      throw new AppError('unauthorized', 'The API key is missing, malformed, unknown or revoked.', undefined, {
        'www-authenticate': 'Bearer',
      });
    const accepted: readonly ApiKeyScope[] = typeof requirement.apiKey === 'string' ? [requirement.apiKey] : requirement.apiKey;
    if (!accepted.some((scope) => hasScope(key.scopes, scope))) {
      const named = accepted.map((scope) => `"${scope}"`).join(' or ');
      throw new AppError('forbidden', `This API key lacks the ${named} scope.`, {
        required_scope: accepted.length === 1 ? accepted[0] : accepted,
      });
    }
    return { kind: 'api_key', tenantId: key.tenantId, apiKeyId: key.id, scopes: key.scopes };
  }
  if (requirement.session) {
    // Before the session is looked up and before any body is read: a cross-site request is
    // refused whatever it carries (docs/security.md). No cookie, no session: that stays a 401.
    if (!isSafeMethod(call.method) && call.header('cookie') !== null) refuseCrossSite(call, requestId);
    // A dashboard page names the tenant it was rendered for, so that it keeps acting there after
    // the person switched tenants in another tab; one they are not a member of is a 403
    // (lib/auth/page-tenant.ts). Only here: an API key's tenant is the key's, whatever it sends.
    // A download link cannot send a header, so a GET may name it in the query instead.
    const named = call.header(TENANT_HEADER) ?? (isSafeMethod(call.method) ? queryTenant(call.url) : null);
    const member = await getSessionMember(call.headers(), { tenantId: named });
    if (!member) throw new AppError('unauthorized', 'Sign in, or send an API key as "Authorization: Bearer <key>".');
    if (!can(member.role, requirement.session))
      throw new AppError('forbidden', `Your role "${member.role}" cannot do this.`, { role: member.role });
    return { kind: 'session', tenantId: member.tenant.id, userId: member.user.id, role: member.role };
  }
  throw new AppError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".', undefined, { 'www-authenticate': 'Bearer' });
}

/** Throws `cross_site_request` unless the call comes from the instance's own origin. */
function refuseCrossSite(call: IncomingCall, requestId: string): void {
  const error = crossSiteError(call, requestId, env().TOOLGATE_PUBLIC_URL);
  if (error) throw error;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON answer. Its `headers` object is new on every call: servers may add to it. */
export function jsonResult(body: unknown, status: number, headers?: Record<string, string>, requestId?: string): RouteResult {
  // One object literal of one shape in the common case (no extra headers): spreading into a
  // fresh object per answer showed up in the request thread's profile.
  const all: Record<string, string> = headers
    ? { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store', ...headers }
    : { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' };
  if (requestId !== undefined) all['x-request-id'] = requestId;
  return { status, headers: all, text: JSON.stringify(body) };
}

/**
 * The query string as an object for its schema. A NUL (`%00`) is refused here for every route:
 * no filter or name can hold one, and PostgreSQL text cannot take it (22021).
 */
function queryValues(url: string, method: string): Record<string, string> {
  const parsed = URL.parse(url);
  if (!parsed) throw new AppError('bad_request', 'The request URL could not be read.');
  const values = Object.fromEntries(parsed.searchParams);
  // The page's tenant (a download link's, read in authenticate), not one of the route's filters;
  // only a GET's is read, so on a change it stays an unknown parameter.
  if (isSafeMethod(method)) delete values[TENANT_FIELD];
  for (const [key, value] of Object.entries(values))
    if (value.includes('\0'))
      throw new AppError('bad_request', `Invalid query: ${key.slice(0, 64)}: must not contain NUL`, {
        issues: [{ path: key.slice(0, 64), message: 'must not contain NUL' }],
      });
  return values;
}

/** The tenant a dashboard download link names (`?tenant_id=`), when the URL has one. */
function queryTenant(url: string): string | null {
  if (!url.includes(`${TENANT_FIELD}=`)) return null;
  return URL.parse(url)?.searchParams.get(TENANT_FIELD) ?? null;
}

/**
 * A value PostgreSQL refuses (SQLSTATE class 22, data exception: a date out of its range, NUL in
 * text, a number past its column) reached a query: the caller sent it, so the answer is 400.
 * Prisma puts the driver's code under meta.driverAdapterError; node-postgres on the error.
 */
export function dataExceptionCode(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } }; cause?: unknown };
  const candidates = [e.meta?.driverAdapterError?.cause?.originalCode, e.code];
  for (const code of candidates) if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return code;
  return e.cause !== undefined && e.cause !== error ? dataExceptionCode(e.cause) : null;
}

/**
 * Prisma's refusal of a query the server built and no retry gets past: P2029, more bound
 * parameters than the database takes (SQLite 999). A listing that bound one per row answered
 * 503 "retry shortly" for good once a tenant grew; it is a defect, so 500 and an error log.
 */
export function queryDefectCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'P2029' ? code : null;
}

/** Database and driver failures: the answer is 503 (retry), never an allow and never a 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  const name = typeof e.name === 'string' ? e.name : '';
  const code = typeof e.code === 'string' ? e.code : '';
  if (queryDefectCode(error)) return false;
  if (/^Prisma|DriverAdapterError/.test(name)) return true;
  if (
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|57P0\d|57014|53300|SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)|P10\d\d|P2024)/.test(
      code,
    )
  )
    return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

function errorResult(error: unknown, requestId: string, call: IncomingCall): RouteResult {
  const answer = error instanceof AppError ? error : answerFor(error, requestId, call);
  return jsonResult(
    {
      error: { code: answer.code, message: answer.message, ...(answer.details ? { details: answer.details } : {}) },
      request_id: requestId,
    },
    answer.status,
    { ...answer.headers, 'x-request-id': requestId },
  );
}

/** What a failure that is not an AppError is answered as, logged by its kind. */
function answerFor(error: unknown, requestId: string, call: IncomingCall): AppError {
  // Never throws: this is where failures are answered.
  const path = URL.parse(call.url)?.pathname ?? '(unreadable URL)';
  const dataException = dataExceptionCode(error);
  if (dataException) {
    log.warn('request value refused by the database', { request_id: requestId, path, sqlstate: dataException });
    return new AppError('bad_request', 'A value in this request is out of the range the database can hold.', { sqlstate: dataException });
  }
  // Two requests made the same row at the same moment and the code path did not expect it:
  // the caller's retry finds the row, so this is theirs to retry, not a server failure.
  if (isUniqueViolation(error)) {
    const target = (error as { meta?: { target?: unknown } }).meta?.target;
    log.warn('request refused by a unique key', { request_id: requestId, path, target: target === undefined ? null : String(target) });
    return new AppError('conflict', 'Another request made the same thing at the same moment. Retry to see what it made.');
  }
  const defect = queryDefectCode(error);
  if (defect) {
    log.error('query refused by the database', {
      request_id: requestId,
      path,
      prisma_code: defect,
      error: String((error as Error).message ?? error).slice(0, 500),
    });
    return new AppError('internal', 'An unexpected error occurred.');
  }
  if (isDatabaseUnavailable(error)) {
    log.error('database unavailable', { request_id: requestId, path, error: String((error as Error).message ?? error).slice(0, 500) });
    return new AppError('unavailable', 'Toolgate cannot reach its database right now; nothing was decided. Retry shortly.', undefined, {
      'retry-after': '2',
    });
  }
  // The client went away and the handler stopped on its signal (a long verify): nobody reads
  // this answer, and nothing failed.
  if (call.signal.aborted && (error === call.signal.reason || (error instanceof Error && error.name === 'AbortError'))) {
    log.info('client went away before the answer', { request_id: requestId, path });
    return new AppError('client_closed', 'The client closed the connection before the answer.');
  }
  log.error('unhandled error', {
    request_id: requestId,
    path,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return new AppError('internal', 'An unexpected error occurred.');
}
