import { db, isUniqueViolation } from '../../db';
import { AppError, NotFoundError } from '../../errors';
import { log } from '../../log';
import { draftFromMcpTool } from '../../contracts/formats/mcp';
import type { ReviewNote } from '../../contracts/formats/draft-contract';
import { saveDocumentDraft } from '../../documents/save-document-draft';
import { recordAdminEvidence, type AdminActor } from '../../evidence/record-admin-evidence';
import { classifyDrift } from '../classify-drift';
import { definitionHash, MAX_UPSTREAM_TOOLS, mcpContractId, type UpstreamToolDefinition } from '../tool-definition';
import type { McpTransport } from '../servers/mcp-server-view';
import { mcpServersChanged, notifyMcpServersChanged } from '../servers/mcp-server-cache';
import { MAX_MCP_SERVERS_PER_TENANT } from '../servers/register-mcp-server';

export interface McpServerRecord {
  id: string;
  tenantId: string;
  name: string;
  transport: string;
  listUnpublished: boolean;
  autoAcceptCosmetic: boolean;
  approvalWaitSeconds: number;
}

export interface McpToolRecord {
  id: string;
  name: string;
  contractId: string;
  pinnedHash: string;
  pinnedDefinition: string;
  driftHash: string | null;
}

/**
 * The server a gateway reports for. A stdio server is known by its first report (the proxy runs
 * on the agent's machine; Toolgate never calls it); a hosted one must have been registered. A
 * name used by the other transport is a conflict, so a proxy cannot pin or drift a hosted
 * server's tools.
 */
export async function findOrCreateMcpServer(options: {
  tenantId: string;
  name: string;
  transport: McpTransport;
}): Promise<McpServerRecord> {
  const { tenantId, name, transport } = options;
  const where = { tenantId_name: { tenantId, name } };
  let row = await db().mcpServer.findUnique({ where });
  if (!row && transport === 'stdio') {
    // The same cap as registered servers: any validate key can report a new name.
    if ((await db().mcpServer.count({ where: { tenantId } })) >= MAX_MCP_SERVERS_PER_TENANT)
      throw new AppError('conflict', `A tenant can have at most ${MAX_MCP_SERVERS_PER_TENANT} MCP servers; delete one first.`, {
        limit: MAX_MCP_SERVERS_PER_TENANT,
      });
    try {
      row = await db().$transaction(async (tx) => {
        const created = await tx.mcpServer.create({ data: { tenantId, name, transport: 'stdio' } });
        await mcpServersChanged(tx);
        return created;
      });
      notifyMcpServersChanged();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      row = await db().mcpServer.findUnique({ where });
    }
  }
  if (!row) throw new NotFoundError('MCP server', name);
  if (row.transport !== transport)
    throw new AppError('conflict', `The MCP server ${name} is registered for the ${row.transport} transport, not ${transport}.`, {
      name,
      transport: row.transport,
    });
  return row;
}

/**
 * What the gateway does with every `tools/list` answer of an upstream: a tool seen for the first
 * time gets a draft contract (the MCP import, with its review notes) and its definition pinned;
 * a known tool whose definition differs from the pin is drifted (classified, recorded as
 * evidence, refused until accepted) unless the server auto-accepts cosmetic drift and that is
 * all it is. A definition back to its pin clears the drift. Returns the server's tool rows, and
 * the new tools left unpinned because the server already has MAX_UPSTREAM_TOOLS: the cap holds
 * across reports, or any validate key could add 500 draft contracts with every report of new
 * names. Two reports at the same moment may each pin up to it; the listings work at any size.
 */
export async function syncMcpTools(options: {
  server: McpServerRecord;
  definitions: UpstreamToolDefinition[];
  actor: AdminActor;
}): Promise<{ rows: McpToolRecord[]; notPinned: string[] }> {
  const { server, actor } = options;
  const tenantId = server.tenantId;
  const rows = await db().mcpTool.findMany({ where: { serverId: server.id } });
  const byName = new Map<string, McpToolRecord>(rows.map((row) => [row.name, row]));
  const taken = new Set(rows.map((row) => row.contractId));
  const notPinned: string[] = [];
  let changed = false;
  for (const definition of options.definitions) {
    const hash = definitionHash(definition);
    const row = byName.get(definition.name);
    if (!row && byName.size >= MAX_UPSTREAM_TOOLS) {
      notPinned.push(definition.name);
      continue;
    }
    if (!row) {
      const created = await pinNewTool({ server, definition, hash, taken });
      if (created) byName.set(created.name, created);
      continue;
    }
    if (hash === row.pinnedHash) {
      if (row.driftHash) {
        // Recorded: with several gateways reporting under one name, a report of the pinned
        // definition clears a drift another one still sees (its calls stay refused, since they
        // carry their own upstream's hash), and an author should be able to tell that it happened.
        const id = row.id;
        const { extra } = await recordAdminEvidence(
          {
            tenantId,
            kind: 'mcp_drift',
            action: 'tool_definition_reverted',
            actor,
            details: {
              server: server.name,
              tool: definition.name,
              contract_id: row.contractId,
              pinned_hash: row.pinnedHash,
              drift_hash: row.driftHash,
            },
          },
          async (tx) => {
            const cleared = await tx.mcpTool.update({ where: { id }, data: clearedDrift() });
            await mcpServersChanged(tx);
            return cleared;
          },
        );
        byName.set(row.name, extra);
        changed = true;
      }
      continue;
    }
    if (hash === row.driftHash) continue;
    const pinned = JSON.parse(row.pinnedDefinition) as UpstreamToolDefinition;
    const report = classifyDrift(pinned, definition);
    const cosmetic = report.classes.length === 1 && report.classes[0] === 'cosmetic';
    const details = {
      server: server.name,
      tool: definition.name,
      contract_id: row.contractId,
      pinned_hash: row.pinnedHash,
      upstream_hash: hash,
      classes: report.classes,
      findings: report.findings.slice(0, 20),
    };
    if (cosmetic && server.autoAcceptCosmetic) {
      const { extra } = await recordAdminEvidence(
        { tenantId, kind: 'mcp_drift', action: 'tool_definition_auto_accepted', actor, details },
        async (tx) => {
          const updated = await tx.mcpTool.update({
            where: { id: row.id },
            data: { pinnedHash: hash, pinnedDefinition: JSON.stringify(definition), pinnedAt: new Date(), ...clearedDrift() },
          });
          await mcpServersChanged(tx);
          return updated;
        },
      );
      byName.set(row.name, extra);
      changed = true;
      continue;
    }
    const { extra } = await recordAdminEvidence(
      { tenantId, kind: 'mcp_drift', action: 'tool_definition_changed', actor, details },
      async (tx) => {
        const updated = await tx.mcpTool.update({
          where: { id: row.id },
          data: {
            driftHash: hash,
            driftDefinition: JSON.stringify(definition),
            driftClasses: report.classes.join(' '),
            driftSeenAt: new Date(),
          },
        });
        await mcpServersChanged(tx);
        return updated;
      },
    );
    changed = true;
    log.warn('mcp tool definition changed', { tenant: tenantId, server: server.name, tool: definition.name, classes: report.classes });
    byName.set(row.name, extra);
  }
  await db().mcpServer.update({ where: { id: server.id }, data: { lastSeenAt: new Date() } });
  if (changed) notifyMcpServersChanged();
  return { rows: [...byName.values()], notPinned };
}

function clearedDrift() {
  return { driftHash: null, driftDefinition: null, driftClasses: null, driftSeenAt: null };
}

async function pinNewTool(options: {
  server: McpServerRecord;
  definition: UpstreamToolDefinition;
  hash: string;
  taken: Set<string>;
}): Promise<McpToolRecord | null> {
  const { server, definition, hash } = options;
  const contractId = mcpContractId(server.name, definition.name, options.taken);
  const notes = await importDraft(server.tenantId, contractId, definition);
  try {
    return await db().mcpTool.create({
      data: {
        tenantId: server.tenantId,
        serverId: server.id,
        name: definition.name,
        contractId,
        pinnedHash: hash,
        pinnedDefinition: JSON.stringify(definition),
        importNotes: JSON.stringify(notes),
      },
    });
  } catch (error) {
    // Another instance pinned it first; theirs stands.
    if (!isUniqueViolation(error)) throw error;
    return db().mcpTool.findUnique({ where: { serverId_name: { serverId: server.id, name: definition.name } } });
  }
}

/**
 * Saves the MCP import of the tool as a draft of contract `contractId`, unless the tenant already
 * has that contract (an author wrote it first, or an earlier pin was forgotten): an existing
 * contract is never overwritten. Returns the review notes for the studio.
 */
async function importDraft(tenantId: string, contractId: string, definition: UpstreamToolDefinition): Promise<ReviewNote[]> {
  const existing = await db().contract.findFirst({ where: { tenantId, name: contractId }, select: { id: true } });
  if (existing) return [{ path: '$.id', message: `The contract ${contractId} already existed; it was kept as it was.` }];
  const outcome = draftFromMcpTool(definition as unknown as Record<string, unknown>, [], {
    options: { namespace: '' },
    takenIds: new Set(),
  });
  if ('problem' in outcome) return [{ path: outcome.problem.path, message: `Not imported: ${outcome.problem.message}` }];
  const { document } = outcome.contract;
  document.id = contractId;
  const notes = outcome.contract.notes.filter((note) => note.path !== '$.id');
  notes.unshift({ path: '$.id', message: `The gateway's id for the MCP tool "${definition.name.slice(0, 100)}": server.tool.` });
  try {
    await saveDocumentDraft({ tenantId, kind: 'contract', document });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    notes.push({ path: '$', message: `The draft could not be saved: ${message.slice(0, 500)}` });
  }
  return notes;
}
