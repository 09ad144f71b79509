import { z } from 'zod';
import { defineRoute } from '../define-route';
import { getOverview } from '../../overview/get-overview';

const nullableString = z.string().nullable();
const count = z.number().int().min(0);

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
  })
  .strict();

/** GET /api/v1/overview — the last 24 hours: calls, refusals, pending approvals, noisiest codes, shadow differences. */
export const overviewHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  response: OverviewSchema,
  handler: async ({ caller }) => ({ body: await getOverview({ tenantId: caller.tenantId }) }),
});
