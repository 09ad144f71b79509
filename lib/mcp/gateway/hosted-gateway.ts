import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../../auth/caller';
import { getInstanceSecret } from '../../auth/instance-secret';
import { findMcpServerRegistration } from '../servers/mcp-server-cache';
import { env } from '../../env';
import { AppError, NotFoundError } from '../../errors';
import { log } from '../../log';
import { openSecret } from '../servers/secret-box';
import { authHeaderAssociatedData } from '../servers/register-mcp-server';
import { createLocalEngine } from './local-engine';
import { DEFAULT_GATEWAY_LIMITS, GatewaySession, createGatewayServer, type GatewayLimits } from './gateway-session';
import { guardedFetch } from './guarded-fetch';
import { screenUpstreamMessage } from './upstream-numbers';
import { Upstream } from './upstream';

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

/** Bounded so that many tenants, servers and keys cannot grow memory without limit; the oldest goes first. */
const MAX_UPSTREAMS = 200;
const MAX_SESSIONS = 2000;
const upstreams = new Map<string, Upstream>();
const sessions = new Map<string, GatewaySession>();

function limits(): GatewayLimits {
  const e = env();
  return {
    ...DEFAULT_GATEWAY_LIMITS,
    callTimeoutMs: Math.round(e.TOOLGATE_MCP_CALL_TIMEOUT_SECONDS * 1000),
    maxResultBytes: e.TOOLGATE_MCP_MAX_RESULT_BYTES,
  };
}

function remember<T>(map: Map<string, T>, key: string, value: T, max: number, drop: (value: T) => void): T {
  map.set(key, value);
  while (map.size > max) {
    const [oldest, evicted] = map.entries().next().value as [string, T];
    map.delete(oldest);
    drop(evicted);
  }
  return value;
}

/**
 * One upstream connection per registered server and configuration (URL, auth header): shared
 * by every caller of the tenant, kept open between requests, replaced when the server's
 * registration changes.
 */
async function upstreamFor(row: {
  tenantId: string;
  name: string;
  url: string;
  authHeaderName: string | null;
  authHeaderCipher: string | null;
}) {
  const key = [row.tenantId, row.name, row.url, row.authHeaderName ?? '', row.authHeaderCipher ?? ''].join('\n');
  const known = upstreams.get(key);
  if (known) return known;
  const headers: Record<string, string> = {};
  if (row.authHeaderName && row.authHeaderCipher) {
    const value = openSecret(await getInstanceSecret(), row.authHeaderCipher, authHeaderAssociatedData(row.tenantId, row.name));
    if (value === null)
      throw new AppError(
        'conflict',
        `The auth header of MCP server ${row.name} cannot be read (was TOOLGATE_SECRET rotated?); set it again.`,
        {
          reason: 'auth_header_unreadable',
        },
      );
    headers[row.authHeaderName] = value;
  }
  const { maxResultBytes, callTimeoutMs } = limits();
  const fetch = guardedFetch({
    allowPrivate: env().TOOLGATE_MCP_ALLOW_PRIVATE,
    maxBytes: Math.max(maxResultBytes * 4, 16 * 1024 * 1024),
    // A little past the longest wait for one answer (a tools/call), so the SDK's own timeout
    // reports it first, and then the socket goes too.
    requestTimeoutMs: callTimeoutMs + 5_000,
    // Numbers a double cannot hold never reach the SDK's JSON.parse, which would change them (upstream-numbers.ts).
    screen: (text) => screenUpstreamMessage(text, row.name),
  });
  const upstream = new Upstream(
    () => new StreamableHTTPClientTransport(new URL(row.url), { requestInit: { headers }, fetch }),
    row.name,
    Object.values(headers),
  );
  for (const [other, stale] of upstreams) {
    if (other.startsWith(`${row.tenantId}\n${row.name}\n`)) {
      upstreams.delete(other);
      void stale.close();
    }
  }
  return remember(upstreams, key, upstream, MAX_UPSTREAMS, (evicted) => void evicted.close());
}

/**
 * POST /api/v1/mcp/{server}: the hosted gateway, MCP over Streamable HTTP in its stateless form
 * (a JSON answer per request, no session id), so any data-plane instance can answer any request
 * of an agent. The agent's Toolgate API key is its Bearer token; the upstream's own credentials
 * never leave Toolgate.
 */
export async function serveHostedMcp(options: { caller: KeyCaller; server: string; request: Request; body: unknown }): Promise<Response> {
  const { caller } = options;
  const row = await findMcpServerRegistration(caller.tenantId, options.server);
  if (!row || row.transport !== 'http' || !row.url) throw new NotFoundError('MCP server', options.server);
  const upstream = await upstreamFor({ ...row, url: row.url });
  const sessionKey = `${caller.tenantId}\n${row.name}\n${caller.apiKeyId}`;
  let session = sessions.get(sessionKey);
  if (!session || session.upstream !== upstream) {
    session?.close();
    session = remember(
      sessions,
      sessionKey,
      new GatewaySession(row.name, createLocalEngine({ caller, server: row.name }), upstream, limits()),
      MAX_SESSIONS,
      (evicted) => evicted.close(),
    );
  }
  session.settings = { approval_wait_seconds: row.approvalWaitSeconds, list_unpublished: row.listUnpublished };
  const server = createGatewayServer(session);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(options.request, { parsedBody: options.body });
  } catch (error) {
    log.error('mcp hosted gateway failure', { server: row.name, error: upstream.errorText(error) });
    throw error;
  } finally {
    // After the SDK has settled the request it answered: closing at once would abort that
    // request's handler signal (a DOMException and a ConnectionClosed error per call).
    setImmediate(() => void server.close().catch(() => undefined));
  }
}
