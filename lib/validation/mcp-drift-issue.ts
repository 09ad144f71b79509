import { pinnedMcpTools } from '../mcp/servers/mcp-server-cache';
import { makeIssue, type ValidationIssue } from './error-codes';

/**
 * AXAG_TOOL_DEFINITION_CHANGED when the MCP server's definition of the tool differs from the
 * pinned one and nobody has accepted the change yet (lib/mcp/tools/sync-mcp-tools.ts): a drift
 * some gateway reported, or the definition this call's own gateway lists now
 * (`definitionHash`). The second holds when several proxies report under one server name and
 * another one's report, showing the pinned definition, cleared the drift: this call still goes
 * to the changed upstream. Asked only of calls that name their MCP server, as the gateway's
 * always do; read from memory.
 */
export async function mcpDriftIssue(options: {
  tenantId: string;
  server: string;
  tool: string;
  definitionHash?: string;
}): Promise<ValidationIssue | null> {
  const row = (await pinnedMcpTools(options.tenantId, options.server)).get(options.tool);
  if (!row) return null;
  const differsHere = options.definitionHash !== undefined && options.definitionHash !== row.pinnedHash;
  if (!row.driftHash && !differsHere) return null;
  const classes = (row.driftClasses ?? '').split(' ').filter(Boolean);
  const what = row.driftHash
    ? `(${classes.join(', ') || 'changed'})`
    : '(the upstream this call goes to lists another definition than the pinned one)';
  return makeIssue('AXAG_TOOL_DEFINITION_CHANGED', {
    intent: options.tool,
    message: `The ${options.server} server changed the definition of ${row.name} ${what}; calls are refused until an author reviews and accepts the change.`,
    server: options.server,
    upstream_tool: row.name,
    drift_classes: classes,
    drift_seen_at: row.driftSeenAt?.toISOString() ?? null,
  });
}
