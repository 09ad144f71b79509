import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { mcpServerParam, mcpToolParam } from '../path-params';
import { McpServerChangesSchema, NewMcpServerSchema } from '../../mcp/servers/mcp-server-input';
import { McpServerViewSchema } from '../../mcp/servers/mcp-server-view';
import { deleteMcpServer, registerMcpServer, updateMcpServer } from '../../mcp/servers/register-mcp-server';
import { getMcpServerView, listMcpServers } from '../../mcp/servers/list-mcp-servers';
import { reportMcpTools } from '../../mcp/tools/report-mcp-tools';
import { acceptMcpDrift, getMcpDrift } from '../../mcp/tools/accept-mcp-drift';
import { DRIFT_CLASSES } from '../../mcp/classify-drift';
import { MAX_UPSTREAM_TOOLS } from '../../mcp/tool-definition';

const manage = { apiKey: 'admin', session: 'manage_keys' } as const;
const read = { apiKey: ['admin', 'author'], session: 'read' } as const;
const server = z.object({ server: mcpServerParam() });
const serverTool = z.object({ server: mcpServerParam(), tool: mcpToolParam() });

/** GET /api/v1/mcp-servers — the tenant's MCP servers, hosted and proxied, with their tools. */
export const listMcpServersHandler = defineRoute({
  auth: read,
  query: NO_QUERY,
  response: z.object({ servers: z.array(McpServerViewSchema) }).strict(),
  handler: async ({ caller }) => ({ body: { servers: await listMcpServers({ tenantId: caller.tenantId }) } }),
});

/** POST /api/v1/mcp-servers — register a hosted (Streamable HTTP) upstream. */
export const registerMcpServerHandler = defineRoute({
  auth: manage,
  body: NewMcpServerSchema,
  response: McpServerViewSchema,
  handler: async ({ caller, body }) => ({ status: 201, body: await registerMcpServer({ tenantId: caller.tenantId, input: body }) }),
});

/** GET /api/v1/mcp-servers/{server} */
export const getMcpServerHandler = defineRoute({
  auth: read,
  query: NO_QUERY,
  params: server,
  response: McpServerViewSchema,
  handler: async ({ caller, params }) => ({ body: await getMcpServerView({ tenantId: caller.tenantId, name: params.server }) }),
});

/** PATCH /api/v1/mcp-servers/{server} */
export const updateMcpServerHandler = defineRoute({
  auth: manage,
  params: server,
  body: McpServerChangesSchema,
  response: McpServerViewSchema,
  handler: async ({ caller, params, body }) => ({
    body: await updateMcpServer({ tenantId: caller.tenantId, name: params.server, changes: body }),
  }),
});

/** DELETE /api/v1/mcp-servers/{server} */
export const deleteMcpServerHandler = defineRoute({
  auth: manage,
  params: server,
  response: z.object({ name: z.string(), deleted: z.literal(true) }).strict(),
  handler: async ({ caller, params }) => ({ body: await deleteMcpServer({ tenantId: caller.tenantId, name: params.server }) }),
});

const ListedToolSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
    annotations: z.record(z.string(), z.unknown()),
  })
  .strict();

/** POST /api/v1/mcp-servers/{server}/tools — a stdio proxy reports its upstream's tools/list. */
export const reportMcpToolsHandler = defineRoute({
  auth: { apiKey: 'validate' },
  params: server,
  body: z
    .object({
      tools: z
        .array(z.unknown())
        .max(MAX_UPSTREAM_TOOLS * 2)
        .describe("The `tools` of the upstream's tools/list answer, as sent."),
    })
    .strict(),
  response: z
    .object({
      server: z.object({ name: z.string(), list_unpublished: z.boolean(), approval_wait_seconds: z.number().int() }).strict(),
      tools: z.array(
        z
          .object({
            name: z.string(),
            contract_id: z.string(),
            status: z.enum(['unpublished', 'published', 'drifted']),
            definition_hash: z
              .string()
              .optional()
              .describe("The hash of the definition this caller's upstream lists; send it as validate/pre `mcp_definition_hash`."),
            refused: z.string().nullable(),
            tool: ListedToolSchema.nullable(),
            invalid_result: z.enum(['withhold', 'pass_through']),
          })
          .strict(),
      ),
      problems: z.array(z.string()),
    })
    .strict(),
  handler: async ({ caller, params, body }) => {
    if (caller.kind !== 'api_key') throw new Error('unreachable: API key auth only');
    return {
      body: await reportMcpTools({
        tenantId: caller.tenantId,
        server: params.server,
        transport: 'stdio',
        tools: body.tools,
        actor: { kind: 'api_key', apiKeyId: caller.apiKeyId },
      }),
    };
  },
});

const DefinitionSchema = z.record(z.string(), z.unknown());

/** GET /api/v1/mcp-servers/{server}/tools/{tool}/drift — the pending change of a tool's definition, for review. */
export const getMcpDriftHandler = defineRoute({
  auth: read,
  query: NO_QUERY,
  params: serverTool,
  response: z
    .object({
      server: z.string(),
      tool: z.string(),
      contract_id: z.string(),
      pinned_hash: z.string(),
      upstream_hash: z.string(),
      seen_at: z.string(),
      classes: z.array(z.enum(DRIFT_CLASSES)),
      findings: z.array(z.object({ class: z.enum(DRIFT_CLASSES), path: z.string(), message: z.string() }).strict()),
      pinned: DefinitionSchema,
      upstream: DefinitionSchema,
      diff: z.array(z.object({ op: z.enum([' ', '+', '-']), text: z.string() }).strict()),
    })
    .strict(),
  handler: async ({ caller, params }) => ({
    body: await getMcpDrift({ tenantId: caller.tenantId, server: params.server, tool: params.tool }),
  }),
});

/** POST /api/v1/mcp-servers/{server}/tools/{tool}/drift/accept — pin the reviewed new definition. */
export const acceptMcpDriftHandler = defineRoute({
  auth: { apiKey: 'author', session: 'edit_contracts' },
  params: serverTool,
  body: z
    .object({
      hash: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe('The upstream_hash of the definition that was reviewed.'),
    })
    .strict(),
  response: z.object({ server: z.string(), tool: z.string(), pinned_hash: z.string() }).strict(),
  handler: async ({ caller, params, body }) => ({
    body: await acceptMcpDrift({
      tenantId: caller.tenantId,
      server: params.server,
      tool: params.tool,
      hash: body.hash,
      userId: caller.kind === 'session' ? caller.userId : null,
      apiKeyId: caller.kind === 'api_key' ? caller.apiKeyId : null,
    }),
  }),
});
