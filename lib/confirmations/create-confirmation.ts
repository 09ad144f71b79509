import { db } from '../db';
import { issueCallToken, type CallBinding } from '../approvals/call-token';

/**
 * Records that the end user confirmed one exact call and returns the single-use token the
 * agent passes to validate/pre as `confirmation_token`. Called by the host application once
 * its user has clicked "confirm", never by the model.
 */
export async function createConfirmation(options: { binding: CallBinding; ttlSeconds: number; secret: string }) {
  const { binding } = options;
  const row = await db().confirmation.create({
    data: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      argsHash: binding.argsHash,
      userId: binding.userId,
      expiresAt: new Date(Date.now() + options.ttlSeconds * 1000),
    },
  });
  return {
    id: row.id,
    confirmation_token: issueCallToken(options.secret, 'confirmation', row.id, binding),
    expires_at: row.expiresAt.toISOString(),
  };
}
