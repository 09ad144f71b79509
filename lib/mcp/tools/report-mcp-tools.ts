import type { AdminActor } from '../../evidence/record-admin-evidence';
import { log } from '../../log';
import type { McpTransport } from '../servers/mcp-server-view';
import { definitionHash, MAX_UPSTREAM_TOOLS, readUpstreamTool, type UpstreamToolDefinition } from '../tool-definition';
import { gatewayTools } from './gateway-tools';
import type { McpToolReport } from '@toolgate/sdk/core';
import { findOrCreateMcpServer, syncMcpTools } from './sync-mcp-tools';

export type ToolReport = McpToolReport;

/**
 * One gateway's report of what its upstream lists now, answered with how each tool stands for
 * this caller. Both ways in use it: the hosted gateway in process, the stdio proxy through
 * POST /api/v1/mcp-servers/{server}/tools.
 */
export async function reportMcpTools(options: {
  tenantId: string;
  server: string;
  transport: McpTransport;
  tools: readonly unknown[];
  actor: AdminActor;
}): Promise<ToolReport> {
  const server = await findOrCreateMcpServer({ tenantId: options.tenantId, name: options.server, transport: options.transport });
  const problems: string[] = [];
  const definitions: UpstreamToolDefinition[] = [];
  const seen = new Set<string>();
  for (const entry of options.tools.slice(0, MAX_UPSTREAM_TOOLS)) {
    const read = readUpstreamTool(entry);
    if ('problem' in read) problems.push(read.problem);
    else if (seen.has(read.definition.name))
      problems.push(`tool ${JSON.stringify(read.definition.name)} is listed twice; the first is used`);
    else {
      seen.add(read.definition.name);
      definitions.push(read.definition);
    }
  }
  if (options.tools.length > MAX_UPSTREAM_TOOLS)
    problems.push(`the upstream lists ${options.tools.length} tools; the first ${MAX_UPSTREAM_TOOLS} are used`);
  const { rows, notPinned } = await syncMcpTools({ server, definitions, actor: options.actor });
  // First: the answer and the log keep only the first problems, and bad entries can be many.
  if (notPinned.length > 0)
    problems.unshift(
      `the server has ${MAX_UPSTREAM_TOOLS} tools pinned, the most a server may have; ${notPinned.length} new tools were not pinned (the first: ${JSON.stringify(notPinned[0])})`,
    );
  if (problems.length > 0)
    log.warn('mcp upstream tools not used', { tenant: options.tenantId, server: server.name, problems: problems.slice(0, 10) });
  const tools = await gatewayTools({ server, rows, upstream: definitions.map((d) => ({ name: d.name, hash: definitionHash(d) })) });
  return {
    server: { name: server.name, list_unpublished: server.listUnpublished, approval_wait_seconds: server.approvalWaitSeconds },
    tools,
    problems: problems.slice(0, 50),
  };
}
