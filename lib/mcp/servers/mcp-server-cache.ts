import { bumpChange, invalidatedCache, notifyLocalChange } from '../../cache/change-feed';
import { db, type Tx } from '../../db';

/**
 * The MCP gateway's hot path reads two things on every call: the server's registration (hosted
 * endpoint) and which of its tools are drifted (validate/pre with `mcp_server`). Both come
 * from memory, dropped on this instance at once and on others at their next change poll
 * (TOOLGATE_CACHE_POLL_MS) whenever a server, a pin or a drift changes: call
 * `mcpServersChanged` in the changing transaction and `notifyMcpServersChanged` after it.
 */

export interface McpServerRegistration {
  id: string;
  tenantId: string;
  name: string;
  transport: string;
  url: string | null;
  authHeaderName: string | null;
  authHeaderCipher: string | null;
  listUnpublished: boolean;
  autoAcceptCosmetic: boolean;
  approvalWaitSeconds: number;
}

export interface PinnedTool {
  name: string;
  pinnedHash: string;
  /** Set while a changed definition waits for review. */
  driftHash: string | null;
  driftClasses: string | null;
  driftSeenAt: Date | null;
}

const registrations = invalidatedCache<McpServerRegistration | null>('mcp_servers', { maxEntries: 10_000, ttlMs: 30_000 });
const pins = invalidatedCache<ReadonlyMap<string, PinnedTool>>('mcp_servers', { maxEntries: 10_000, ttlMs: 30_000 });

export function findMcpServerRegistration(tenantId: string, name: string): Promise<McpServerRegistration | null> {
  return registrations.load(`${tenantId}\n${name}`, () =>
    db().mcpServer.findUnique({
      where: { tenantId_name: { tenantId, name } },
      select: {
        id: true,
        tenantId: true,
        name: true,
        transport: true,
        url: true,
        authHeaderName: true,
        authHeaderCipher: true,
        listUnpublished: true,
        autoAcceptCosmetic: true,
        approvalWaitSeconds: true,
      },
    }),
  );
}

/** The server's tools by contract id: each one's pin, and its drift when one waits for review. */
export function pinnedMcpTools(tenantId: string, server: string): Promise<ReadonlyMap<string, PinnedTool>> {
  return pins.load(`${tenantId}\n${server}`, async () => {
    const rows = await db().mcpTool.findMany({
      where: { tenantId, server: { tenantId, name: server } },
      select: { contractId: true, name: true, pinnedHash: true, driftHash: true, driftClasses: true, driftSeenAt: true },
    });
    return new Map(rows.map(({ contractId, ...pin }) => [contractId, pin]));
  });
}

export function mcpServersChanged(tx: Tx): Promise<void> {
  return bumpChange(tx, 'mcp_servers');
}

export function notifyMcpServersChanged(): void {
  notifyLocalChange('mcp_servers');
}
