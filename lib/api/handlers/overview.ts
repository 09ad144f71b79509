import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { getOverview } from '../../overview/get-overview';
import { CHAIN_BREAK_REASONS } from '../../overview/overview-types';
import { SPIKE_FACTOR, SPIKE_MIN_CALLS } from '../../overview/spikes';
import { VIOLATION_KINDS } from '../../violations/violation-kinds';

const nullableString = z.string().nullable();
const count = z.number().int().min(0);

const WindowCountsSchema = z
  .object({
    since: z.string(),
    until: z.string(),
    calls: count,
    refusals: count,
    held_for_approval: count,
    post_checks: count,
    post_failures: count,
  })
  .strict();
const ComparisonSchema = z.object({ current: WindowCountsSchema, previous: WindowCountsSchema }).strict();
const PairSchema = z.object({ current: count, previous: count }).strict();

const RefusalKindSchema = z
  .object({
    kind: z
      .enum(VIOLATION_KINDS)
      .describe(
        '`arguments`: agent mistakes (validate/pre denied for what the agent sent); `policy`: denied by a policy, limit, budget, scope or role; `approval`: held for a person; `tool`: validate/post denied. GET /api/v1/violations?kind= lists them.',
      ),
    hour: PairSchema.describe('Calls in the last hour, and in the same hour the day before.'),
    day: PairSchema.describe('Calls in the last 24 hours, and in the 24 hours before them.'),
    spike: z
      .boolean()
      .describe(`The last hour holds at least ${SPIKE_MIN_CALLS} calls and at least ${SPIKE_FACTOR} times the same hour the day before.`),
  })
  .strict();

const OverviewSchema = z
  .object({
    since: z.string(),
    until: z.string(),
    calls: count,
    refusals: count,
    held_for_approval: count,
    shadow_differences: count,
    pending_approvals: count,
    top_codes: z
      .array(z.object({ code: z.string(), count }).strict())
      .describe(
        'The noisiest violation codes of the last 24 hours, approval holds (AXAG_APPROVAL_MISSING, AXAG_ESCALATION_REQUIRED) left out.',
      ),
    refusal_kinds: z
      .array(RefusalKindSchema)
      .describe('Refusals and holds split by kind, always the four of them in this order: arguments, policy, approval, tool.'),
    last_record_at: nullableString,
    hour: ComparisonSchema.describe('The last hour against the same hour the day before.'),
    day: ComparisonSchema.describe('The last 24 hours against the 24 hours before them.'),
    evidence_chain: z
      .object({
        checked_at: z.string(),
        valid: z.boolean().nullable(),
        records_checked: count,
        from_seq: z.number().int().nullable(),
        to_seq: z.number().int().nullable(),
        first_broken: z
          .object({ seq: z.number().int(), reason: z.enum(CHAIN_BREAK_REASONS) })
          .strict()
          .nullable(),
      })
      .strict()
      .describe(
        'The newest records of the chain, verified on this read; GET /api/v1/evidence/verify verifies all of it (from its newest verified checkpoint).',
      ),
    webhooks: z
      .object({
        endpoints: count,
        since: z.string(),
        delivered: count,
        failed: count,
        retrying: count,
        waiting: count,
        oldest_pending_at: nullableString,
        failing_endpoints: z.array(
          z
            .object({
              id: z.string(),
              host: z.string(),
              failed: count,
              retrying: count,
              last_error: nullableString,
              last_failure_at: z.string(),
            })
            .strict(),
        ),
      })
      .strict()
      .describe('Deliveries of the last 24 hours by outcome, the oldest still to be made, endpoints failing now.'),
    api_keys_expiring: z
      .object({ count, soonest_at: nullableString })
      .strict()
      .describe('Unrevoked API keys that expire within a week or expired in the last one, and the earliest of those expiries.'),
  })
  .strict();

/**
 * GET /api/v1/overview — the last hour and the last 24 hours against the day before (calls,
 * refusals, held for approval, post-call failures), the refusals by kind with their spikes,
 * pending approvals, noisiest codes, shadow differences, the newest evidence verified, webhook
 * delivery. The dashboard's overview polls it.
 */
export const overviewHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: NO_QUERY,
  response: OverviewSchema,
  handler: async ({ caller }) => ({ body: await getOverview({ tenantId: caller.tenantId }) }),
});
