import { db } from '../db';
import { issueCallToken, type CallBinding } from '../approvals/call-token';
import { wellFormed } from '../evidence/chain-records';

/**
 * Records that the end user confirmed one exact call and returns the single-use token the
 * agent passes to validate/pre as `confirmation_token`. Called by the host application once
 * its user has clicked "confirm", never by the model.
 */
export async function createConfirmation(options: { binding: CallBinding; ttlSeconds: number; secret: string }) {
  // The end user as the row stores it and as validate/pre binds the call (validate-pre-call.ts):
  // a NUL or a lone surrogate becomes U+FFFD, so the row can be written on PostgreSQL and the
  // token is signed over the value the redeeming call presents.
  const binding = { ...options.binding, userId: options.binding.userId === null ? null : wellFormed(options.binding.userId) };
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
