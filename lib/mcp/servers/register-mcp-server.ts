import { db, isUniqueViolation } from '../../db';
import { env } from '../../env';
import { AppError, NotFoundError } from '../../errors';
import { getInstanceSecret } from '../../auth/instance-secret';
import { blockedWebhookHost } from '../../webhooks/webhook-address';
import type { McpServerChanges, NewMcpServer } from './mcp-server-input';
import { sealSecret } from './secret-box';
import { mcpServersChanged, notifyMcpServersChanged } from './mcp-server-cache';
import { getMcpServerView } from './list-mcp-servers';
import type { McpServerView } from './mcp-server-view';

/** Per tenant: enough for every team's servers, few enough to list on one page. */
export const MAX_MCP_SERVERS_PER_TENANT = 50;

/** What the sealed auth header is bound to, so a copied value does not open for another row. */
export function authHeaderAssociatedData(tenantId: string, name: string): string {
  return `${tenantId}\nmcp-server\n${name}`;
}

/**
 * Hosted upstreams are called from inside Toolgate's network, so the same rule as webhook
 * receivers applies (public addresses only, checked again at connect time after DNS) unless
 * the operator allows private ones.
 */
function refusePrivateUrl(url: string): void {
  const blocked = env().TOOLGATE_MCP_ALLOW_PRIVATE ? null : blockedWebhookHost(new URL(url));
  if (blocked)
    throw new AppError(
      'bad_request',
      `Hosted MCP servers must be on public addresses: ${blocked}. (An operator can allow private ones with TOOLGATE_MCP_ALLOW_PRIVATE=1.)`,
      { reason: 'private_address' },
    );
}

export async function registerMcpServer(options: { tenantId: string; input: NewMcpServer }): Promise<McpServerView> {
  const { tenantId, input } = options;
  refusePrivateUrl(input.url);
  const count = await db().mcpServer.count({ where: { tenantId } });
  if (count >= MAX_MCP_SERVERS_PER_TENANT)
    throw new AppError('conflict', `A tenant can have at most ${MAX_MCP_SERVERS_PER_TENANT} MCP servers; delete one first.`, {
      limit: MAX_MCP_SERVERS_PER_TENANT,
    });
  const secret = input.auth_header ? await getInstanceSecret() : null;
  try {
    await db().$transaction(async (tx) => {
      await tx.mcpServer.create({
        data: {
          tenantId,
          name: input.name,
          transport: 'http',
          url: input.url,
          authHeaderName: input.auth_header?.name ?? null,
          authHeaderCipher:
            input.auth_header && secret
              ? sealSecret(secret, input.auth_header.value, authHeaderAssociatedData(tenantId, input.name))
              : null,
          listUnpublished: input.list_unpublished ?? false,
          autoAcceptCosmetic: input.auto_accept_cosmetic ?? false,
          approvalWaitSeconds: input.approval_wait_seconds ?? 30,
        },
      });
      await mcpServersChanged(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', `An MCP server named ${input.name} already exists.`, { name: input.name });
    throw error;
  }
  notifyMcpServersChanged();
  return getMcpServerView({ tenantId, name: input.name });
}

export async function updateMcpServer(options: { tenantId: string; name: string; changes: McpServerChanges }): Promise<McpServerView> {
  const { tenantId, name, changes } = options;
  const row = await db().mcpServer.findUnique({ where: { tenantId_name: { tenantId, name } } });
  if (!row) throw new NotFoundError('MCP server', name);
  if (row.transport !== 'http' && (changes.url !== undefined || changes.auth_header !== undefined))
    throw new AppError('bad_request', `${name} is run by the stdio proxy on the agent's machine; it has no URL or auth header here.`, {
      reason: 'stdio_server',
    });
  if (changes.url !== undefined) refusePrivateUrl(changes.url);
  let auth: { authHeaderName: string | null; authHeaderCipher: string | null } | undefined;
  if (changes.auth_header === null) auth = { authHeaderName: null, authHeaderCipher: null };
  else if (changes.auth_header)
    auth = {
      authHeaderName: changes.auth_header.name,
      authHeaderCipher: sealSecret(await getInstanceSecret(), changes.auth_header.value, authHeaderAssociatedData(tenantId, name)),
    };
  await db().$transaction(async (tx) => {
    await tx.mcpServer.update({
      where: { id: row.id },
      data: {
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(auth ?? {}),
        ...(changes.list_unpublished !== undefined ? { listUnpublished: changes.list_unpublished } : {}),
        ...(changes.auto_accept_cosmetic !== undefined ? { autoAcceptCosmetic: changes.auto_accept_cosmetic } : {}),
        ...(changes.approval_wait_seconds !== undefined ? { approvalWaitSeconds: changes.approval_wait_seconds } : {}),
      },
    });
    await mcpServersChanged(tx);
  });
  notifyMcpServersChanged();
  return getMcpServerView({ tenantId, name });
}

/** Forgets the server and its pins; the contracts imported from it stay (they are the tenant's documents). */
export async function deleteMcpServer(options: { tenantId: string; name: string }): Promise<{ name: string; deleted: true }> {
  const count = await db().$transaction(async (tx) => {
    const deleted = await tx.mcpServer.deleteMany({ where: { tenantId: options.tenantId, name: options.name } });
    if (deleted.count > 0) await mcpServersChanged(tx);
    return deleted.count;
  });
  if (count === 0) throw new NotFoundError('MCP server', options.name);
  notifyMcpServersChanged();
  return { name: options.name, deleted: true };
}
