import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { env } from '../env';
import { authenticateApiKey } from '../auth/api-keys';
import { hasScope, type ApiKeyScope } from '../auth/api-key-scopes';
import { getSessionMember } from '../auth/session';
import { can, type Permission, type Role } from '../tenants/roles';
import { ApiError } from './errors';
import { readJsonBody } from './json-body';
import { log } from '../log';

/** Who is calling. Every service call below the wrapper is scoped by `tenantId`. */
export type Caller =
  | { kind: 'api_key'; tenantId: string; apiKeyId: string; scopes: ApiKeyScope[]; storeRawArguments: boolean }
  | { kind: 'session'; tenantId: string; userId: string; role: Role };

/**
 * The auth an endpoint needs: an API key with a scope, a signed-in user with a permission, or
 * either. `none` is only for public documents such as the contract JSON Schema.
 */
export type AuthRequirement = { apiKey?: ApiKeyScope; session?: Permission } | 'none';

export interface RouteContext<B, Q> {
  request: Request;
  requestId: string;
  caller: B extends never ? never : Caller;
  body: B;
  query: Q;
  params: Record<string, string>;
}

export type RouteHandler = ((request: Request, context?: { params?: Promise<Record<string, string | string[]>> | Record<string, string | string[]> }) => Promise<Response>) & {
  /** What the OpenAPI document is generated from. */
  readonly spec?: RouteSpec;
};

export interface RouteSpec {
  auth: AuthRequirement;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
}

interface RouteDefinition<BS extends z.ZodType | undefined, QS extends z.ZodType | undefined> {
  auth: AuthRequirement;
  body?: BS;
  query?: QS;
  /** Checked in tests (TOOLGATE_VALIDATE_RESPONSES=1): agents depend on exact shapes. */
  response?: z.ZodType;
  handler: (ctx: {
    request: Request;
    requestId: string;
    caller: Caller;
    body: BS extends z.ZodType ? z.infer<BS> : undefined;
    query: QS extends z.ZodType ? z.infer<QS> : undefined;
    params: Record<string, string>;
  }) => Promise<Response | JsonResult>;
}

export interface JsonResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The one wrapper every endpoint goes through. It owns: request ids, body limits and JSON
 * parsing, auth and tenant scoping, Zod parsing of query and body, and mapping every failure to
 * the error envelope. Handlers are Web-standard `(Request) => Promise<Response>`, so the same
 * function mounts in a Next route file and on a bare Node server.
 */
export function defineRoute<BS extends z.ZodType | undefined = undefined, QS extends z.ZodType | undefined = undefined>(
  definition: RouteDefinition<BS, QS>,
): RouteHandler {
  const handler: RouteHandler = async (request, context) => {
    const incoming = request.headers.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    try {
      const caller = await authenticate(request, definition.auth);
      const params = await resolveParams(context?.params);
      const query = definition.query ? parseWith(definition.query, Object.fromEntries(new URL(request.url).searchParams), 'query') : undefined;
      let body: unknown;
      if (definition.body) {
        const e = env();
        const raw = await readJsonBody(request, { maxBytes: e.TOOLGATE_MAX_BODY_BYTES, maxDepth: e.TOOLGATE_MAX_JSON_DEPTH });
        body = parseWith(definition.body, raw, 'body');
      }
      const result = await definition.handler({
        request,
        requestId,
        caller: caller as Caller,
        body: body as never,
        query: query as never,
        params,
      });
      if (result instanceof Response) {
        result.headers.set('x-request-id', requestId);
        return result;
      }
      if (definition.response && process.env.TOOLGATE_VALIDATE_RESPONSES === '1') {
        const checked = definition.response.safeParse(result.body);
        if (!checked.success) throw new Error(`response does not match its schema: ${z.prettifyError(checked.error)}`);
      }
      return json(result.body, result.status ?? 200, { ...result.headers, 'x-request-id': requestId });
    } catch (error) {
      return errorResponse(error, requestId, request);
    }
  };
  return Object.assign(handler, { spec: { auth: definition.auth, body: definition.body, query: definition.query, response: definition.response } });
}

async function resolveParams(params: Promise<Record<string, string | string[]>> | Record<string, string | string[]> | undefined): Promise<Record<string, string>> {
  const resolved = (await params) ?? {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(resolved)) out[key] = Array.isArray(value) ? value.join('/') : value;
  return out;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query'): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    const first = issues[0];
    throw new ApiError('bad_request', `Invalid ${where}${first ? `: ${first.path}: ${first.message}` : ''}`, { issues });
  }
  return parsed.data;
}

async function authenticate(request: Request, requirement: AuthRequirement): Promise<Caller | undefined> {
  if (requirement === 'none') return undefined;
  const header = request.headers.get('authorization');
  if (header !== null) {
    if (!requirement.apiKey) throw new ApiError('forbidden', 'This endpoint is for signed-in users, not API keys.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1] ? await authenticateApiKey(match[1]) : null;
    if (!key) throw new ApiError('unauthorized', 'The API key is missing, malformed, unknown or revoked.', undefined, { 'www-authenticate': 'Bearer' });
    if (!hasScope(key.scopes, requirement.apiKey)) {
      throw new ApiError('forbidden', `This API key lacks the "${requirement.apiKey}" scope.`, { required_scope: requirement.apiKey });
    }
    return { kind: 'api_key', tenantId: key.tenantId, apiKeyId: key.id, scopes: key.scopes, storeRawArguments: key.storeRawArguments };
  }
  if (requirement.session) {
    const member = await getSessionMember(request.headers);
    if (!member) throw new ApiError('unauthorized', 'Sign in, or send an API key as "Authorization: Bearer <key>".');
    if (!can(member.role, requirement.session)) throw new ApiError('forbidden', `Your role "${member.role}" cannot do this.`, { role: member.role });
    return { kind: 'session', tenantId: member.tenant.id, userId: member.user.id, role: member.role };
  }
  throw new ApiError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".', undefined, { 'www-authenticate': 'Bearer' });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } });
  responseText.set(response, text);
  return response;
}

/**
 * The text of responses built by `json`, so the data-plane server can write it straight to the
 * socket instead of reading it back through a web stream (a measurable cost per call).
 */
export const responseText = new WeakMap<Response, string>();

/** Database and driver failures: the answer is 503 (retry), never an allow and never a 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  const name = typeof e.name === 'string' ? e.name : '';
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^Prisma|DriverAdapterError/.test(name)) return true;
  if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|57P0\d|53300|SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)|P10\d\d|P2024)/.test(code)) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

function errorResponse(error: unknown, requestId: string, request: Request): Response {
  if (error instanceof ApiError) {
    return json({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }, request_id: requestId }, error.status, { ...error.headers, 'x-request-id': requestId });
  }
  const path = new URL(request.url).pathname;
  if (isDatabaseUnavailable(error)) {
    log.error('database unavailable', { request_id: requestId, path, error: String((error as Error).message ?? error).slice(0, 500) });
    return json({ error: { code: 'unavailable', message: 'Toolgate cannot reach its database right now; nothing was decided. Retry shortly.' }, request_id: requestId }, 503, { 'retry-after': '2', 'x-request-id': requestId });
  }
  log.error('unhandled error', { request_id: requestId, path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return json({ error: { code: 'internal', message: 'An unexpected error occurred.' }, request_id: requestId }, 500, { 'x-request-id': requestId });
}
