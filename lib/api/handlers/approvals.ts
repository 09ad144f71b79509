import { z } from 'zod';
import { defineRoute } from '../define-route';
import { rowIdParam } from '../path-params';
import { plainObject } from '../../json';
import { storedTextSchema } from '../../stored-text';
import { getInstanceSecret } from '../../auth/instance-secret';
import { getApprovalOrThrow } from '../../approvals/get-approval-or-throw';
import { decideApproval } from '../../approvals/decide-approval';
import { listApprovals } from '../../approvals/list-approvals';
import { MAX_WAIT_SECONDS, waitForApprovalChange } from '../../approvals/wait-for-approval';
import { APPROVAL_STATUSES } from '../../approvals/approval-outcome';
import { CANNOT_DECIDE_CODES, QUEUE_FILTERS } from '../../approvals/approval-queue-types';
import { wholeNumberParam } from '../../listing/query-fields';

const status = z.enum(APPROVAL_STATUSES);
const outcome = z.enum(['pending', 'approved', 'denied']);
const iso = z.string();
/** The policies and rules whose transforms rewrote a held call's arguments (null: none did). */
const RewrittenBySchema = z.array(z.object({ policy_id: z.string(), version: z.string(), rule: z.string() }).strict()).nullable();
const ApprovalParams = z.object({ id: rowIdParam('approval') });

const ApprovalViewSchema = z
  .object({
    id: z.string(),
    status,
    outcome,
    tool: z.string(),
    version: z.string(),
    call_id: z.string(),
    trace_id: z.string(),
    side_effect_level: z.string(),
    approver_roles: z.array(z.string()),
    approvals: z.number().int(),
    approvers_required: z.number().int().min(1),
    escalation_level: z.number().int(),
    reason: z.string(),
    created_at: iso,
    expires_at: iso,
    decided_at: iso.nullable(),
    comment: z.string().nullable(),
    edited: z.boolean(),
    rewritten_by: RewrittenBySchema,
    arguments: z.record(z.string(), z.unknown()).optional(),
    approval_token: z.string().optional(),
    token_used: z.boolean(),
  })
  .strict();

const DecisionResultSchema = z
  .object({
    id: z.string(),
    status,
    outcome,
    decided_at: iso.nullable(),
    comment: z.string().nullable(),
    approvals: z.number().int(),
    approvers_required: z.number().int().min(1),
    approver_roles: z.array(z.string()),
    escalation_level: z.number().int(),
    edited: z.boolean(),
  })
  .strict();

const ArgumentsDiffSchema = z
  .object({
    changes: z.array(
      z
        .object({
          kind: z.enum(['added', 'removed', 'changed']),
          path: z.string(),
          before: z.unknown().optional(),
          after: z.unknown().optional(),
        })
        .strict(),
    ),
    truncated: z.boolean(),
  })
  .strict()
  .describe("Edited arguments: what the edit changed against the agent's arguments, sensitive values redacted.");

const ViewerRightsSchema = z
  .object({
    can_decide: z.boolean(),
    can_approve: z.boolean(),
    can_escalate: z.boolean(),
    cannot_decide_reason: z
      .object({ code: z.enum(CANNOT_DECIDE_CODES), message: z.string() })
      .strict()
      .nullable(),
  })
  .strict()
  .describe('What the caller (the signed-in person, or the admin key) may do with this approval, and why not.');

const QueueItemSchema = z
  .object({
    id: z.string(),
    status,
    outcome,
    tool: z.string(),
    version: z.string(),
    side_effect_level: z.string(),
    reason: z.string(),
    arguments: z.record(z.string(), z.unknown()).nullable(),
    arguments_omitted: z.boolean(),
    edited: z.boolean(),
    rewritten_by: RewrittenBySchema,
    args_hash: z.string(),
    original_args_hash: z.string().nullable(),
    requesting_key: z.object({ id: z.string(), name: z.string(), prefix: z.string() }).nullable(),
    user_id: z.string().nullable().describe("The end user the agent says it acts for (context.user_id): the agent's claim."),
    context: z.record(z.string(), z.unknown()).nullable().describe('The context the agent sent, its unverified claim; kept while pending.'),
    context_omitted: z.boolean(),
    arguments_diff: ArgumentsDiffSchema.nullable(),
    escalation: z
      .object({ by: z.string().nullable(), by_label: z.string().nullable(), at: iso.nullable(), comment: z.string().nullable() })
      .strict()
      .nullable(),
    viewer: ViewerRightsSchema,
    policy: z.object({ id: z.string(), version: z.string().nullable(), rule: z.string().nullable() }).nullable(),
    approver_roles: z.array(z.string()),
    votes: z.array(
      z.object({ approver: z.string(), approver_label: z.string(), decision: z.string(), comment: z.string().nullable(), created_at: iso }),
    ),
    approvals: z.number().int(),
    approvers_required: z.number().int().min(1),
    escalation_level: z.number().int(),
    escalated_at: iso.nullable(),
    created_at: iso,
    expires_at: iso,
    time_left_seconds: z.number().int().min(0),
    decided_at: iso.nullable(),
    decided_by: z.string().nullable(),
    decided_by_label: z.string().nullable(),
    comment: z.string().nullable(),
    call_id: z.string(),
    trace_id: z.string(),
    trace: z.array(
      z.object({ evidence_id: z.string(), kind: z.string(), decision: z.string(), codes: z.array(z.string()), created_at: iso }),
    ),
  })
  .strict();

/**
 * GET /api/v1/approvals/{id}[?wait=N] — the state of an approval; once approved, its
 * single-use token (and the edited arguments, when an approver edited them). With `wait`
 * (0-30 s) a pending approval is held open until it is decided, expires, or the time is up.
 */
export const getApprovalHandler = defineRoute({
  auth: { apiKey: 'validate', session: 'read' },
  query: z
    .object({
      wait: wholeNumberParam(0, MAX_WAIT_SECONDS)
        .optional()
        .describe(`Seconds to wait for a pending approval to change (0-${MAX_WAIT_SECONDS}).`),
    })
    .strict(),
  params: ApprovalParams,
  response: ApprovalViewSchema,
  handler: async ({ caller, params, query, call }) => {
    const { id } = params;
    const secret = await getInstanceSecret();
    const forPerson = caller.kind === 'session';
    const apiKeyId = caller.kind === 'api_key' ? caller.apiKeyId : undefined;
    const first = await getApprovalOrThrow({ tenantId: caller.tenantId, id, secret, forPerson, apiKeyId });
    const waitSeconds = query?.wait ?? 0;
    if (first.status !== 'pending' || waitSeconds === 0) return { body: first };
    await waitForApprovalChange({ tenantId: caller.tenantId, id, waitMs: waitSeconds * 1000, signal: call.signal });
    return { body: await getApprovalOrThrow({ tenantId: caller.tenantId, id, secret, forPerson, apiKeyId }) };
  },
});

/**
 * GET /api/v1/approvals — the tenant's approval queue (people, and admin keys), each approval
 * with what the caller may do with it (`viewer`).
 */
export const listApprovalsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: z
    .object({
      status: z.enum(QUEUE_FILTERS).default('pending'),
      cursor: z.string().max(64).optional(),
      limit: wholeNumberParam(0, 100).default(50).describe('0 answers only the counts.'),
    })
    .strict(),
  response: z
    .object({ approvals: z.array(QueueItemSchema), next_cursor: z.string().nullable(), counts: z.object({ pending: z.number().int() }) })
    .strict(),
  handler: async ({ caller, query }) => ({
    body: await listApprovals({
      tenantId: caller.tenantId,
      status: query.status,
      cursor: query.cursor,
      limit: query.limit,
      viewer:
        caller.kind === 'api_key'
          ? { kind: 'api_key', apiKeyId: caller.apiKeyId }
          : { kind: 'session', userId: caller.userId, role: caller.role },
    }),
  }),
});

/**
 * POST /api/v1/approvals/{id}/decision — approve (optionally with edited `arguments`), deny,
 * or escalate to the admins' queue (admin key, or a session allowed to decide approvals).
 */
export const decideApprovalHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'decide_approvals' },
  body: z
    .object({
      decision: z.enum(['approve', 'deny', 'escalate']),
      comment: storedTextSchema('comment', 2000).optional(),
      arguments: plainObject(
        "approve only: the arguments to approve instead of the agent's; the token is bound to them and the agent receives them.",
      ).optional(),
    })
    .strict(),
  params: ApprovalParams,
  response: DecisionResultSchema,
  handler: async ({ caller, params, body, requestId, firstRecordId }) => ({
    body: await decideApproval({
      tenantId: caller.tenantId,
      id: params.id,
      decision: body.decision,
      comment: body.comment,
      arguments: body.arguments,
      requestId,
      firstRecordId,
      approver:
        caller.kind === 'api_key'
          ? { kind: 'api_key', apiKeyId: caller.apiKeyId }
          : { kind: 'session', userId: caller.userId, role: caller.role },
    }),
  }),
});
