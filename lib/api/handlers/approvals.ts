import { z } from 'zod';
import { defineRoute } from '../define-route';
import { getInstanceSecret } from '../../auth/instance-secret';
import { getApprovalOrThrow } from '../../approvals/get-approval-or-throw';
import { decideApproval } from '../../approvals/decide-approval';

/** GET /api/v1/approvals/{id} — the state of an approval; once approved, its single-use token. */
export const getApprovalHandler = defineRoute({
  auth: { apiKey: 'validate', session: 'read' },
  handler: async ({ caller, params }) => ({
    body: await getApprovalOrThrow({ tenantId: caller.tenantId, id: params.id ?? '', secret: await getInstanceSecret() }),
  }),
});

/** POST /api/v1/approvals/{id}/decision — approve or deny (admin key, or an approver's session). */
export const decideApprovalHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'decide_approvals' },
  body: z.object({ decision: z.enum(['approve', 'deny']), comment: z.string().max(2000).optional() }).strict(),
  handler: async ({ caller, params, body, requestId }) => ({
    body: await decideApproval({
      tenantId: caller.tenantId,
      id: params.id ?? '',
      decision: body.decision,
      comment: body.comment,
      requestId,
      approver: caller.kind === 'api_key' ? { kind: 'api_key', apiKeyId: caller.apiKeyId } : { kind: 'session', userId: caller.userId, role: caller.role },
    }),
  }),
});
