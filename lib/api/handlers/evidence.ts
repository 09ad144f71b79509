import { z } from 'zod';
import { defineRoute } from '../define-route';
import { verifyEvidenceChain } from '../../evidence/verify-evidence-chain';
import { listViolations } from '../../evidence/list-violations';

/** GET /api/v1/evidence/verify — walk the tenant's hash chain and report the first broken link. */
export const verifyEvidenceHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  handler: async ({ caller }) => ({ body: await verifyEvidenceChain({ tenantId: caller.tenantId }) }),
});

/** GET /api/v1/violations — errors over time, filterable by code, tool, key and time. */
export const listViolationsHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'read' },
  query: z
    .object({
      code: z.string().max(64).optional(),
      tool: z.string().max(128).optional(),
      api_key_id: z.string().max(64).optional(),
      since: z.iso.datetime({ offset: true }).optional(),
      until: z.iso.datetime({ offset: true }).optional(),
      cursor: z.string().max(64).optional(),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    })
    .strict(),
  handler: async ({ caller, query }) => ({ body: await listViolations({ tenantId: caller.tenantId, ...query }) }),
});
