import { z } from 'zod';
import { defineRoute } from '../define-route';
import { verifyEvidenceChain } from '../../evidence/verify-evidence-chain';

/** GET /api/v1/evidence/verify — walk the tenant's hash chain and report the first broken link. */
export const verifyEvidenceHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  response: z
    .object({
      valid: z.boolean(),
      records: z.number().int(),
      head: z.object({ seq: z.number().int(), hash: z.string() }).strict().nullable(),
      firstBroken: z
        .object({
          seq: z.number().int(),
          id: z.string(),
          reason: z.enum(['hash_mismatch', 'prev_hash_mismatch', 'seq_gap', 'head_mismatch', 'payload_mismatch']),
        })
        .strict()
        .nullable(),
    })
    .strict(),
  handler: async ({ caller }) => ({ body: await verifyEvidenceChain({ tenantId: caller.tenantId }) }),
});
