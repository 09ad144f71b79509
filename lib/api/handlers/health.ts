import { z } from 'zod';
import { defineRoute } from '../define-route';
import { checkHealth } from '../../health/check-health';

/**
 * GET /healthz — 200 `{status: "ok"}` when this instance and its database answer, else 503
 * `{status: "unavailable", reason}`: for load balancers and readiness probes, without a key.
 * Outside /api/v1, as /metrics: Next serves it from app/healthz/route.ts and the data plane from
 * lib/data-plane/routes.ts, so data-plane-only instances answer it too.
 */
export const healthHandler = defineRoute({
  auth: 'none',
  response: z.object({ status: z.enum(['ok', 'unavailable']), reason: z.string().optional() }).strict(),
  handler: async () => {
    const health = await checkHealth();
    return { status: health.status === 'ok' ? 200 : 503, body: health };
  },
});
