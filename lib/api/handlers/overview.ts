import { z } from 'zod';
import { defineRoute } from '../define-route';
import { getOverview } from '../../overview/get-overview';
import { CHAIN_BREAK_REASONS } from '../../overview/overview-types';

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

const OverviewSchema = z
  .object({
    since: z.string(),
    until: z.string(),
    calls: count,
    refusals: count,
    held_for_approval: count,
    shadow_differences: count,
    pending_approvals: count,
    top_codes: z.array(z.object({ code: z.string(), count }).strict()),
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
      .describe('The newest records of the chain, verified on this read; GET /api/v1/evidence/verify walks all of it.'),
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
  })
  .strict();

/**
 * GET /api/v1/overview — the last hour and the last 24 hours against the day before (calls,
 * refusals, held for approval, post-call failures), pending approvals, noisiest codes, shadow
 * differences, the newest evidence verified, webhook delivery. The dashboard's overview polls it.
 */
export const overviewHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  response: OverviewSchema,
  handler: async ({ caller }) => ({ body: await getOverview({ tenantId: caller.tenantId }) }),
});
