import type { Tx } from '../db';
import { env } from '../env';
import type { Approval } from '../generated/sqlite/client';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook-event';
import type { WebhookEvent } from '../webhooks/webhook-events';
import { approvalOutcome } from './approval-outcome';
import { approverRolesOf } from './approval-grant';

/**
 * Queues `approval.pending` or `approval.decided` for the tenant's webhooks, inside the
 * transaction that created or decided the approval. The payload names the call and the
 * decision but carries no arguments: a webhook receiver is outside Toolgate's redaction, and
 * an approver reads the (redacted) arguments in the queue, linked by `queue_url`.
 */
export function enqueueApprovalEvent(tx: Tx, event: WebhookEvent, row: Approval): Promise<number> {
  const publicUrl = env().TOOLGATE_PUBLIC_URL ?? `http://localhost:${env().PORT}`;
  return enqueueWebhookEvent(tx, {
    tenantId: row.tenantId,
    event,
    data: {
      approval: {
        id: row.id,
        status: row.status,
        outcome: approvalOutcome(row.status),
        tool: row.tool,
        version: row.contractVersion,
        side_effect_level: row.sideEffectLevel,
        reason: row.reason,
        call_id: row.callId,
        trace_id: row.traceId,
        user_id: row.userId,
        api_key_id: row.apiKeyId,
        approver_roles: approverRolesOf(row.approverRoles),
        approvers_required: row.approversRequired,
        escalation_level: row.escalationLevel,
        policy: row.policyId ? { id: row.policyId, version: row.policyVersion, rule: row.policyRule } : null,
        edited: row.editedArguments !== null,
        created_at: row.createdAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        decided_at: row.decidedAt?.toISOString() ?? null,
        decided_by: row.decidedBy,
        comment: row.comment,
        queue_url: `${publicUrl.replace(/\/$/, '')}/approvals`,
      },
    },
  });
}
