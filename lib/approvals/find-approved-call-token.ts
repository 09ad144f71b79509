import { db } from '../db';
import { getInstanceSecret } from '../auth/instance-secret';
import { issueCallToken, type CallBinding } from './call-token';
import { now } from '../clock/clock';

/**
 * The token of an approved, unused, unexpired approval of exactly this call that this API key
 * asked for, or undefined. It lets a gateway retry a held call without ever handing the token
 * to the agent: the token is still checked and consumed like a presented one (single use,
 * bound to tool, version, arguments and user), so redeeming adds no way around an approval.
 */
export async function findApprovedCallToken(options: { binding: CallBinding; apiKeyId: string }): Promise<string | undefined> {
  const { binding } = options;
  const row = await db().approval.findFirst({
    where: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      argsHash: binding.argsHash,
      userId: binding.userId,
      apiKeyId: options.apiKeyId,
      status: 'approved',
      tokenUsedAt: null,
      expiresAt: { gt: now() },
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (!row) return undefined;
  return issueCallToken(await getInstanceSecret(), 'approval', row.id, binding);
}
