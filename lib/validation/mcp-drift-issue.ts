import { driftedMcpTools } from '../mcp/servers/mcp-server-cache';
import { makeIssue, type ValidationIssue } from './error-codes';

/**
 * AXAG_TOOL_DEFINITION_CHANGED when the MCP server's current definition of the tool differs
 * from the pinned one and nobody has accepted the change yet (lib/mcp/tools/sync-mcp-tools.ts).
 * Asked only of calls that name their MCP server, as the gateway's always do; read from memory.
 */
export async function mcpDriftIssue(options: { tenantId: string; server: string; tool: string }): Promise<ValidationIssue | null> {
  const row = (await driftedMcpTools(options.tenantId, options.server)).get(options.tool);
  if (!row) return null;
  const classes = (row.driftClasses ?? '').split(' ').filter(Boolean);
  return makeIssue('AXAG_TOOL_DEFINITION_CHANGED', {
    intent: options.tool,
    message: `The ${options.server} server changed the definition of ${row.name} (${classes.join(', ') || 'changed'}); calls are refused until an author reviews and accepts the change.`,
    server: options.server,
    upstream_tool: row.name,
    drift_classes: classes,
    drift_seen_at: row.driftSeenAt?.toISOString() ?? null,
  });
}
