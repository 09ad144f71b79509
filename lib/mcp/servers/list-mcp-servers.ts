import { db } from '../../db';
import { sql } from '../../db/sql';
import { NotFoundError } from '../../errors';
import { mcpServerView, mcpToolView, type McpServerView, type McpToolRow } from './mcp-server-view';

/**
 * The version each tool's contract serves, by contract id, for the tools of one server or of
 * all the tenant's servers: one join, so no list of ids is bound. Resolving each tool's contract
 * on its own made a query per tool, which Prisma batched into one statement with two parameters
 * per tool, past SQLite's 999 at 500 tools (P2029).
 */
async function servedVersions(tenantId: string, serverId?: string): Promise<Map<string, string>> {
  const rows = await db().$queryRaw<{ contractId: string; version: string }[]>(sql`
    SELECT DISTINCT t."contractId", v."version"
    FROM "McpTool" t
    JOIN "Contract" c ON c."tenantId" = t."tenantId" AND c."tool" = t."contractId"
    JOIN "ContractVersion" v ON v."id" = c."latestVersionId"
    WHERE t."tenantId" = ${tenantId} ${serverId === undefined ? sql`` : sql`AND t."serverId" = ${serverId}`}`);
  return new Map(rows.map((row) => [row.contractId, row.version]));
}

function toolViews(tools: McpToolRow[], served: Map<string, string>) {
  return tools.map((tool) => mcpToolView(tool, served.get(tool.contractId) ?? null));
}

export async function listMcpServers(options: { tenantId: string }): Promise<McpServerView[]> {
  const [rows, served] = await Promise.all([
    db().mcpServer.findMany({
      where: { tenantId: options.tenantId },
      orderBy: { name: 'asc' },
      include: { tools: { orderBy: { name: 'asc' } } },
    }),
    servedVersions(options.tenantId),
  ]);
  return rows.map((row) => mcpServerView(row, toolViews(row.tools, served)));
}

export async function getMcpServerView(options: { tenantId: string; name: string }): Promise<McpServerView> {
  const row = await db().mcpServer.findUnique({
    where: { tenantId_name: { tenantId: options.tenantId, name: options.name } },
    include: { tools: { orderBy: { name: 'asc' } } },
  });
  if (!row) throw new NotFoundError('MCP server', options.name);
  return mcpServerView(row, toolViews(row.tools, await servedVersions(options.tenantId, row.id)));
}
