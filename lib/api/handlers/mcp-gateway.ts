import { z } from 'zod';
import { defineRoute } from '../define-route';
import { mcpServerParam } from '../path-params';
import { env } from '../../env';
import { serveHostedMcp } from '../../mcp/gateway/hosted-gateway';

/**
 * POST /api/v1/mcp/{server} — the hosted MCP gateway (Streamable HTTP, stateless, JSON answers).
 * The body is JSON-RPC read by the SDK's transport, which answers malformed messages itself
 * with JSON-RPC errors; only the size limit is Toolgate's.
 */
export const hostedMcpHandler = defineRoute({
  auth: { apiKey: 'validate' },
  params: z.object({ server: mcpServerParam() }),
  response: z.unknown().describe('A JSON-RPC 2.0 response (or batch) as MCP defines it.'),
  handler: async ({ caller, params, call }) => {
    if (caller.kind !== 'api_key') throw new Error('unreachable: API key auth only');
    const text = await call.bodyText(env().TOOLGATE_MAX_BODY_BYTES);
    const request = new Request(call.url, { method: call.method, headers: call.headers(), body: text });
    return serveHostedMcp({ caller, server: params.server, request, body: undefined });
  },
});
