import { db } from '../db';
import { makeIssue, type ValidationIssue } from './error-codes';

/**
 * AXAG_TOOL_DEFINITION_CHANGED when the MCP server's current definition of the tool differs
 * from the pinned one and nobody has accepted the change yet (lib/mcp/tools/sync-mcp-tools.ts).
 * Asked only of calls that name their MCP server, as the gateway's always do.
 */
export async function mcpDriftIssue(options: { tenantId: string; server: string; tool: string }): Promise<ValidationIssue | null> {
  const row = await db().mcpTool.findFirst({
    where: { tenantId: options.tenantId, contractId: options.tool, driftHash: { not: null }, server: { name: options.server } },
    select: { name: true, driftClasses: true, driftSeenAt: true },
  });
  if (!row) return null;
  return makeIssue('AXAG_TOOL_DEFINITION_CHANGED', {
    intent: options.tool,
    message: `The ${options.server} server changed the definition of ${row.name} (${(row.driftClasses ?? 'changed').split(' ').join(', ')}); calls are refused until an author reviews and accepts the change.`,
    server: options.server,
    upstream_tool: row.name,
    drift_classes: (row.driftClasses ?? '').split(' ').filter(Boolean),
    drift_seen_at: row.driftSeenAt?.toISOString() ?? null,
  });
}
