import { z } from 'zod';
import { DRIFT_CLASSES } from '../classify-drift';

export const MCP_TRANSPORTS = ['http', 'stdio'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/** Where a tool stands at the gateway: refused until published, refused while drifted. */
export const MCP_TOOL_STATUSES = ['unpublished', 'published', 'drifted'] as const;
export type McpToolStatus = (typeof MCP_TOOL_STATUSES)[number];

export const McpToolViewSchema = z
  .object({
    name: z.string().describe("The upstream's name for the tool."),
    contract_id: z.string(),
    status: z.enum(MCP_TOOL_STATUSES),
    published_version: z.string().nullable(),
    pinned_hash: z.string(),
    pinned_at: z.string(),
    import_notes: z.array(z.object({ path: z.string(), message: z.string() }).strict()),
    drift: z
      .object({ hash: z.string(), classes: z.array(z.enum(DRIFT_CLASSES)), seen_at: z.string() })
      .strict()
      .nullable(),
  })
  .strict();
export type McpToolView = z.infer<typeof McpToolViewSchema>;

export const McpServerViewSchema = z
  .object({
    name: z.string(),
    transport: z.enum(MCP_TRANSPORTS),
    url: z.string().nullable(),
    auth_header_name: z.string().nullable().describe('The name of the stored auth header; its value is never shown.'),
    list_unpublished: z.boolean(),
    auto_accept_cosmetic: z.boolean(),
    approval_wait_seconds: z.number().int(),
    endpoint: z.string().nullable().describe('Where agents connect (hosted servers): /api/v1/mcp/{name}.'),
    created_at: z.string(),
    last_seen_at: z.string().nullable(),
    tools: z.array(McpToolViewSchema),
  })
  .strict();
export type McpServerView = z.infer<typeof McpServerViewSchema>;

export interface McpServerRow {
  name: string;
  transport: string;
  url: string | null;
  authHeaderName: string | null;
  listUnpublished: boolean;
  autoAcceptCosmetic: boolean;
  approvalWaitSeconds: number;
  createdAt: Date;
  lastSeenAt: Date | null;
}

export interface McpToolRow {
  name: string;
  contractId: string;
  pinnedHash: string;
  pinnedAt: Date;
  importNotes: string;
  driftHash: string | null;
  driftClasses: string | null;
  driftSeenAt: Date | null;
}

export function mcpToolView(row: McpToolRow, publishedVersion: string | null): McpToolView {
  const drift =
    row.driftHash && row.driftSeenAt
      ? {
          hash: row.driftHash,
          classes: (row.driftClasses ?? '')
            .split(' ')
            .filter((c): c is (typeof DRIFT_CLASSES)[number] => (DRIFT_CLASSES as readonly string[]).includes(c)),
          seen_at: row.driftSeenAt.toISOString(),
        }
      : null;
  return {
    name: row.name,
    contract_id: row.contractId,
    status: drift ? 'drifted' : publishedVersion ? 'published' : 'unpublished',
    published_version: publishedVersion,
    pinned_hash: row.pinnedHash,
    pinned_at: row.pinnedAt.toISOString(),
    import_notes: parseNotes(row.importNotes),
    drift,
  };
}

export function mcpServerView(row: McpServerRow, tools: McpToolView[]): McpServerView {
  const transport: McpTransport = row.transport === 'stdio' ? 'stdio' : 'http';
  return {
    name: row.name,
    transport,
    url: row.url,
    auth_header_name: row.authHeaderName,
    list_unpublished: row.listUnpublished,
    auto_accept_cosmetic: row.autoAcceptCosmetic,
    approval_wait_seconds: row.approvalWaitSeconds,
    endpoint: transport === 'http' ? `/api/v1/mcp/${row.name}` : null,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    tools,
  };
}

function parseNotes(text: string): { path: string; message: string }[] {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value
      .filter((n): n is { path: string; message: string } => typeof n?.path === 'string' && typeof n?.message === 'string')
      .map((n) => ({ path: n.path, message: n.message }));
  } catch {
    return [];
  }
}
