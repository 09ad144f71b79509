import { db } from '../db';
import { makeIssue, type ValidationIssue } from '../validation/error-codes';
import type { CallBinding } from './call-token';
import { nowMs } from '../clock/clock';

/**
 * For validate/pre, when a call needs approval and carries no token: if a person denied this
 * exact call (same binding, matched by the agent's own arguments) within `withinSeconds`, the
 * answer is AXAG_APPROVAL_DENIED with the approver's comment, so the comment reaches the model
 * in `llm_message`, instead of queueing the same call again. Only a human denial counts: an
 * approval that merely expired was never looked at, so the call may be asked for again.
 */
export async function findRecentDenial(options: { binding: CallBinding; withinSeconds: number }): Promise<ValidationIssue | null> {
  const { binding } = options;
  const row = await db().approval.findFirst({
    where: {
      tenantId: binding.tenantId,
      tool: binding.tool,
      contractVersion: binding.contractVersion,
      userId: binding.userId,
      status: 'denied',
      decidedAt: { gt: new Date(nowMs() - options.withinSeconds * 1000) },
      OR: [{ argsHash: binding.argsHash }, { originalArgsHash: binding.argsHash }],
    },
    orderBy: { decidedAt: 'desc' },
    select: { id: true, comment: true },
  });
  if (!row) return null;
  return makeIssue('AXAG_APPROVAL_DENIED', {
    intent: binding.tool,
    message: `The approval was denied${row.comment ? `: ${row.comment}` : '.'}`,
    path: '$.approval_token',
    comment: row.comment,
    approval_id: row.id,
  });
}
