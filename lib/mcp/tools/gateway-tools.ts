import { resolveContract } from '../../contracts/resolve-contract';
import { mcpHintsFor } from '../../contracts/formats/mcp';
import { isPlainObject } from '../../json';
import { loadPolicies } from '../../policies/load-policies';
import { policyRefusesTool } from '../../policies/policy-refuses-tool';
import type { McpToolStatus } from '../servers/mcp-server-view';
import type { UpstreamToolDefinition } from '../tool-definition';
import type { McpGatewayTool, McpListedTool } from '@toolgate/sdk/core';
import type { McpServerRecord, McpToolRecord } from './sync-mcp-tools';

export type { McpGatewayTool as GatewayTool, McpListedTool as ListedTool };

/**
 * The upstream's tools as this tenant's gateway presents them: a published, undrifted tool the
 * enforced policies do not refuse outright is listed with what its published contract says (the
 * reviewed description and schemas, the annotations mapped from its side-effect level), never
 * with what the upstream says now, so a changed description cannot reach the model unreviewed.
 * Other tools are listed only when the server lists refused tools, marked as refused.
 */
export async function gatewayTools(options: {
  server: McpServerRecord;
  rows: McpToolRecord[];
  /** What the upstream lists now, in its order: each tool's name and its definition's hash. */
  upstream: readonly { name: string; hash: string }[];
}): Promise<McpGatewayTool[]> {
  const { server } = options;
  const tenantId = server.tenantId;
  const rows = new Map(options.rows.map((row) => [row.name, row]));
  const policies = (await loadPolicies(tenantId)).enforced;
  const out: McpGatewayTool[] = [];
  for (const { name, hash } of options.upstream) {
    const row = rows.get(name);
    if (!row) continue;
    const resolved = await resolveContract({ tenantId, tool: row.contractId });
    const document = resolved.found ? resolved.contract.compiled.document : null;
    // This caller's upstream, not only the stored drift: another gateway reporting under the same
    // name may have cleared the drift with the pinned definition while this one's upstream changed.
    const status: McpToolStatus = row.driftHash || hash !== row.pinnedHash ? 'drifted' : document ? 'published' : 'unpublished';
    let refused: string | null = null;
    if (status === 'drifted') refused = 'The upstream changed this tool; it is refused until an author accepts the change.';
    else if (!document) refused = 'This tool has no published contract yet; it is refused until an author publishes one.';
    else refused = policyRefusesTool(policies, row.contractId, document.annotations.side_effect_level);

    let tool: McpListedTool | null = null;
    const invalidResult = document?.annotations.invalid_result ?? 'withhold';
    if (document && status === 'published' && !refused) {
      // A result passed through may not match the output schema, and MCP clients check
      // structuredContent against a listed one: only results the gate withholds are promised.
      const output =
        invalidResult === 'withhold' && isPlainObject(document.output) && document.output.type === 'object' ? document.output : null;
      tool = {
        name,
        description: document.description,
        inputSchema: document.input,
        ...(output ? { outputSchema: output } : {}),
        annotations: { ...mcpHintsFor(document.annotations.side_effect_level, document.annotations.idempotent) },
      };
    } else if (server.listUnpublished) {
      const pinned = JSON.parse(row.pinnedDefinition) as UpstreamToolDefinition;
      tool = {
        name,
        description: `Refused: ${refused ?? 'not callable now'}`,
        inputSchema: pinned.inputSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      };
    }
    out.push({
      name,
      contract_id: row.contractId,
      status,
      definition_hash: hash,
      refused,
      tool,
      invalid_result: invalidResult,
    });
  }
  return out;
}
