import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { traceIdParam } from '../path-params';
import { listTraces } from '../../traces/list-traces';
import { getTraceOrThrow } from '../../traces/get-trace-or-throw';
import { TracesQuerySchema } from '../../traces/traces-query-schema';
import { dates } from '../../listing/query-fields';

const nullableString = z.string().nullable();

const TraceSummarySchema = z
  .object({
    trace_id: z.string(),
    call_id: z.string(),
    seq: z.number().int(),
    kind: z.string(),
    started_at: z.string(),
    tool: z.string(),
    decision: z.string(),
    api_key_id: nullableString,
    api_key_name: nullableString,
    contract_version: nullableString,
    policy: z.object({ id: z.string(), version: nullableString, rule: nullableString }).strict().nullable(),
    shadow_differs: z.boolean(),
    shadow: z
      .array(
        z
          .object({
            kind: z.string(),
            id: z.string(),
            version: z.string(),
            decision: z.string(),
            rule: nullableString,
            differs: z.boolean(),
          })
          .strict(),
      )
      .optional(),
    records: z.number().int(),
    last_kind: z.string(),
    last_decision: z.string(),
    duration_ms: z.number(),
    checks_ms: z.number(),
    execution_ms: z.number().nullable(),
  })
  .strict();

const TraceListSchema = z
  .object({
    traces: z.array(TraceSummarySchema),
    next_cursor: nullableString,
    searched_back_to: nullableString,
    search_scanned: z
      .boolean()
      .describe('The search walked records a scan window at a time (`contains`, or a prefix naming too many calls).'),
  })
  .strict();

const IssueSchema = z.object({ code: z.string(), type: z.string(), message: z.string(), path: z.string() }).strict();

const TraceDetailSchema = z
  .object({
    trace_id: z.string(),
    call_id: z.string(),
    tool: z.string(),
    started_at: z.string(),
    duration_ms: z.number(),
    truncated: z.boolean(),
    records: z.array(
      z
        .object({
          id: z.string(),
          seq: z.number().int(),
          kind: z.string(),
          created_at: z.string(),
          request_id: z.string(),
          tool: z.string(),
          contract_version: nullableString,
          contract_hash: nullableString,
          args_hash: z.string(),
          hash: z.string(),
          prev_hash: z.string(),
          api_key_id: nullableString,
          api_key_name: nullableString,
          actor_user_id: nullableString,
          actor_label: nullableString,
          decision: z.string(),
          valid: z.boolean(),
          duration_ms: z.number(),
          execution_ms: z.number().nullable(),
          errors: z.array(IssueSchema),
          warnings: z.array(IssueSchema),
          policy: z.object({ id: nullableString, version: nullableString, rule: nullableString, detail: z.unknown() }).strict().nullable(),
          shadow_differs: z.boolean(),
          retained: z
            .object({
              status: z.enum(['kept', 'purged']),
              too_large: z.boolean().optional(),
              arguments: z.unknown().optional(),
              context: z.unknown().optional(),
              result: z.unknown().optional(),
              error: z.unknown().optional(),
              transformed_arguments: z.unknown().optional(),
              as_sent: z
                .array(z.enum(['arguments', 'transformed_arguments', 'context', 'result', 'error']))
                .optional()
                .describe(
                  'Parts holding a number a double cannot hold (a call refused with AXAG_NUMBER_UNREPRESENTABLE): each is given as its stored JSON text, with the numbers as the agent sent them, not parsed.',
                ),
            })
            .strict()
            .nullable()
            .describe(
              'Raw payloads kept with argument retention, redacted as stored; `purged` once the retention purge removed them (their digest stays in the chain).',
            ),
        })
        .strict(),
    ),
    approvals: z.array(
      z
        .object({
          id: z.string(),
          status: z.string(),
          tool: z.string(),
          contract_version: z.string(),
          reason: z.string(),
          approver_roles: z.array(z.string()),
          approvers_required: z.number().int(),
          escalation_level: z.number().int(),
          created_at: z.string(),
          expires_at: z.string(),
          decided_at: nullableString,
          decided_by: nullableString,
          decided_by_label: nullableString,
          comment: nullableString,
          user_id: nullableString.describe("The end user the agent says it acts for: the agent's claim."),
          context: z
            .record(z.string(), z.unknown())
            .nullable()
            .describe('The context the agent sent (its unverified claim), kept while the approval is pending.'),
          policy: z.object({ id: z.string(), version: nullableString, rule: nullableString }).strict().nullable(),
          votes: z.array(
            z
              .object({
                approver_id: z.string(),
                approver_label: z.string(),
                decision: z.string(),
                comment: nullableString,
                created_at: z.string(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    spans: z.array(
      z
        .object({
          kind: z.enum(['validation', 'policy', 'approval_wait', 'approval_decision', 'execution', 'post_validation', 'check']),
          label: z.string(),
          start_ms: z.number(),
          duration_ms: z.number(),
          seq: z.number().int().nullable(),
          approval_id: nullableString,
          outcome: nullableString,
        })
        .strict(),
    ),
    outcome: z
      .object({
        call: z.enum(['allowed', 'transformed', 'denied', 'held', 'escalated']).nullable(),
        approval: z.enum(['pending', 'approved', 'denied', 'expired']).nullable(),
        result: z.enum(['passed', 'failed', 'not_reported', 'not_run']),
        summary: z.string(),
      })
      .strict()
      .describe("How the call ended: its latest validate/pre's answer, its latest approval, and what validate/post said of the result."),
    people: z
      .record(z.string(), z.string())
      .describe(
        'Labels for the `user:<id>` and `api_key:<id>` that texts in the trace name (a member\'s email, a key\'s name, or the id marked "(removed)").',
      ),
  })
  .strict();

/**
 * GET /api/v1/traces — calls newest first (one row per trace), filtered, keyset-paged. With a
 * decision, key or shadow filter a page may come back short (even empty) with a next_cursor and
 * `searched_back_to`: the scan window ended there; keep following next_cursor until it is null.
 */
export const listTracesHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: TracesQuerySchema,
  response: TraceListSchema,
  handler: async ({ caller, query }) => ({
    body: await listTraces({
      tenantId: caller.tenantId,
      filters: {
        tool: query.tool,
        decision: query.decision,
        apiKeyId: query.api_key_id,
        search: query.q,
        match: query.match,
        shadowDiffers: query.shadow_differs === 'true',
        ...dates(query),
      },
      cursor: query.cursor,
      limit: query.limit,
    }),
  }),
});

/** GET /api/v1/traces/{traceId} — one trace: its records, approvals and timeline. */
export const getTraceHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: NO_QUERY,
  params: z.object({ traceId: traceIdParam() }),
  response: TraceDetailSchema,
  handler: async ({ caller, params }) => ({ body: await getTraceOrThrow({ tenantId: caller.tenantId, traceId: params.traceId }) }),
});
