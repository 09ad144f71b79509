import { z } from 'zod';
import { defineRoute } from '../define-route';
import { authorizeScrape } from '../../metrics/metrics-access';
import { EXPOSITION_CONTENT_TYPE, renderMetrics } from '../../metrics/render-metrics';

/**
 * GET /metrics — Prometheus metrics in the text format, for the operator's metrics token (the
 * whole instance) or an admin API key (its own tenant). Outside /api/v1 and its route table, where
 * Prometheus looks by default; Next serves it from app/metrics/route.ts and the data plane from
 * lib/data-plane/routes.ts. Its auth is its own (lib/metrics/metrics-access.ts): the token is not
 * an API key, and no session is accepted.
 */
export const metricsHandler = defineRoute({
  auth: 'none',
  response: z.string(),
  otherMediaTypes: { 'text/plain': z.string() },
  handler: async ({ call }) => {
    const scope = await authorizeScrape(call.header('authorization'));
    return new Response(await renderMetrics(scope), {
      headers: { 'content-type': EXPOSITION_CONTENT_TYPE, 'cache-control': 'no-store' },
    });
  },
});
