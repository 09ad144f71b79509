import { z } from 'zod';
import { defineRoute } from '../define-route';
import { readJsonBody } from '../json-body';
import { mcpServerParam } from '../path-params';
import { env } from '../../env';
import { serveHostedMcp } from '../../mcp/gateway/hosted-gateway';

/** The request headers the SDK's Streamable HTTP transport reads; the rest (the agent's API key among them) stay here. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;

/**
 * POST /api/v1/mcp/{server} — the hosted MCP gateway (Streamable HTTP, stateless, JSON answers).
 * The body is read with the same limits as every JSON body (size, depth, numbers a double
 * cannot hold); what it says as JSON-RPC is the SDK transport's to judge, which answers
 * malformed messages with JSON-RPC errors.
 */
export const hostedMcpHandler = defineRoute({
  auth: { apiKey: 'validate' },
  params: z.object({ server: mcpServerParam() }),
  response: z.unknown().describe('A JSON-RPC 2.0 response (or batch) as MCP defines it.'),
  handler: async ({ caller, params, call }) => {
    if (caller.kind !== 'api_key') throw new Error('unreachable: API key auth only');
    const e = env();
    const body = await readJsonBody(call, { maxBytes: e.TOOLGATE_MAX_BODY_BYTES, maxDepth: e.TOOLGATE_MAX_JSON_DEPTH });
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = call.header(name);
      if (value !== null) headers.set(name, value);
    }
    // The parsed body goes to the transport as it is; the Request carries only what it reads.
    const request = new Request(call.url, { method: call.method, headers });
    return serveHostedMcp({ caller, server: params.server, request, body });
  },
});
