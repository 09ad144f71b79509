import { db } from '../../db';
import { NotFoundError } from '../../errors';
import { resolveContract } from '../../contracts/resolve-contract';
import { mcpServerView, mcpToolView, type McpServerView, type McpToolRow } from './mcp-server-view';

async function toolViews(tenantId: string, tools: McpToolRow[]) {
  return Promise.all(
    tools.map(async (tool) => {
      const resolved = await resolveContract({ tenantId, tool: tool.contractId });
      return mcpToolView(tool, resolved.found ? resolved.contract.version : null);
    }),
  );
}

export async function listMcpServers(options: { tenantId: string }): Promise<McpServerView[]> {
  const rows = await db().mcpServer.findMany({
    where: { tenantId: options.tenantId },
    orderBy: { name: 'asc' },
    include: { tools: { orderBy: { name: 'asc' } } },
  });
  return Promise.all(rows.map(async (row) => mcpServerView(row, await toolViews(options.tenantId, row.tools))));
}

export async function getMcpServerView(options: { tenantId: string; name: string }): Promise<McpServerView> {
  const row = await db().mcpServer.findUnique({
    where: { tenantId_name: { tenantId: options.tenantId, name: options.name } },
    include: { tools: { orderBy: { name: 'asc' } } },
  });
  if (!row) throw new NotFoundError('MCP server', options.name);
  return mcpServerView(row, await toolViews(options.tenantId, row.tools));
}
