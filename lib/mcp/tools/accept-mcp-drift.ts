import { db } from '../../db';
import { AppError, NotFoundError } from '../../errors';
import { isStorableText } from '../../stored-text';
import { recordAdminEvidence } from '../../evidence/record-admin-evidence';
import { classifyDrift, type DriftReport } from '../classify-drift';
import { diffDefinitions, type DiffLine } from '../definition-diff';
import type { UpstreamToolDefinition } from '../tool-definition';
import { mcpServersChanged, notifyMcpServersChanged } from '../servers/mcp-server-cache';

async function findTool(tenantId: string, server: string, tool: string) {
  // The drift page reads both from its path: a name no text column holds names no tool.
  const row =
    isStorableText(server) && isStorableText(tool)
      ? await db().mcpTool.findFirst({ where: { tenantId, name: tool, server: { tenantId, name: server } } })
      : null;
  if (!row) throw new NotFoundError('MCP tool', `${server}/${tool}`);
  return row;
}

export interface McpDriftView {
  server: string;
  tool: string;
  contract_id: string;
  pinned_hash: string;
  upstream_hash: string;
  seen_at: string;
  classes: DriftReport['classes'];
  findings: DriftReport['findings'];
  pinned: UpstreamToolDefinition;
  upstream: UpstreamToolDefinition;
  diff: DiffLine[];
}

/** The pending change of one tool's upstream definition, for review: both definitions, what kind of change, and a line diff. */
export async function getMcpDrift(options: { tenantId: string; server: string; tool: string }): Promise<McpDriftView> {
  const row = await findTool(options.tenantId, options.server, options.tool);
  if (!row.driftHash || !row.driftDefinition || !row.driftSeenAt)
    throw new AppError('not_found', `The MCP tool ${options.server}/${options.tool} has no pending definition change.`, {
      resource: 'MCP drift',
      id: `${options.server}/${options.tool}`,
    });
  const pinned = JSON.parse(row.pinnedDefinition) as UpstreamToolDefinition;
  const upstream = JSON.parse(row.driftDefinition) as UpstreamToolDefinition;
  const report = classifyDrift(pinned, upstream);
  return {
    server: options.server,
    tool: row.name,
    contract_id: row.contractId,
    pinned_hash: row.pinnedHash,
    upstream_hash: row.driftHash,
    seen_at: row.driftSeenAt.toISOString(),
    classes: report.classes,
    findings: report.findings,
    pinned,
    upstream,
    diff: diffDefinitions(pinned, upstream),
  };
}

/**
 * An author accepts the upstream's changed definition: it becomes the pin and calls go through
 * again. `hash` names the definition the author reviewed; if the upstream changed it again
 * since, the acceptance is refused (409) rather than pinning something nobody saw.
 */
export async function acceptMcpDrift(options: {
  tenantId: string;
  server: string;
  tool: string;
  hash: string;
  userId: string | null;
  apiKeyId: string | null;
}): Promise<{ server: string; tool: string; pinned_hash: string }> {
  const row = await findTool(options.tenantId, options.server, options.tool);
  if (!row.driftHash || !row.driftDefinition)
    throw new AppError('conflict', `The MCP tool ${options.server}/${options.tool} has no pending definition change.`, {
      reason: 'no_drift',
    });
  if (row.driftHash !== options.hash)
    throw new AppError('conflict', 'The upstream definition changed again since this one was shown; review the new change.', {
      reason: 'stale',
      upstream_hash: row.driftHash,
    });
  const actor = options.userId
    ? ({ kind: 'user', userId: options.userId } as const)
    : options.apiKeyId
      ? ({ kind: 'api_key', apiKeyId: options.apiKeyId } as const)
      : ({ kind: 'system' } as const);
  const driftHash = row.driftHash;
  const driftDefinition = row.driftDefinition;
  await recordAdminEvidence(
    {
      tenantId: options.tenantId,
      kind: 'mcp_drift',
      action: 'tool_definition_accepted',
      actor,
      details: {
        server: options.server,
        tool: row.name,
        contract_id: row.contractId,
        pinned_hash: row.pinnedHash,
        upstream_hash: driftHash,
        classes: (row.driftClasses ?? '').split(' ').filter(Boolean),
      },
    },
    async (tx) => {
      // Only if nothing moved since it was read: two acceptances, or a new drift, cannot interleave.
      const { count } = await tx.mcpTool.updateMany({
        where: { id: row.id, driftHash },
        data: {
          pinnedHash: driftHash,
          pinnedDefinition: driftDefinition,
          pinnedAt: new Date(),
          driftHash: null,
          driftDefinition: null,
          driftClasses: null,
          driftSeenAt: null,
        },
      });
      if (count !== 1) throw new AppError('conflict', 'The definition change was accepted or replaced meanwhile.', { reason: 'stale' });
      await mcpServersChanged(tx);
    },
  );
  notifyMcpServersChanged();
  return { server: options.server, tool: row.name, pinned_hash: driftHash };
}
