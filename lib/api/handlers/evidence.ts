import { defineRoute } from '../define-route';
import { verifyEvidenceChain } from '../../evidence/verify-evidence-chain';

/** GET /api/v1/evidence/verify — walk the tenant's hash chain and report the first broken link. */
export const verifyEvidenceHandler = defineRoute({
  auth: { apiKey: 'admin', session: 'manage_keys' },
  handler: async ({ caller }) => ({ body: await verifyEvidenceChain({ tenantId: caller.tenantId }) }),
});
