import { z } from 'zod';
import { defineRoute } from '../define-route';
import { NO_QUERY } from '../no-query';
import { listMemberTenants, switchTenant } from '../../auth/session';
import { Role } from './members';

const TenantSchema = z.object({ id: z.string(), slug: z.string(), name: z.string(), role: Role }).strict();

/** GET /api/v1/session/tenants — the tenants the signed-in person belongs to, and which one they act in. */
export const listSessionTenantsHandler = defineRoute({
  auth: { session: 'read' },
  query: NO_QUERY,
  response: z.object({ current: z.string(), tenants: z.array(TenantSchema) }).strict(),
  handler: async ({ caller }) => {
    const userId = caller.kind === 'session' ? caller.userId : '';
    const tenants = await listMemberTenants(userId);
    return { body: { current: tenants.find((t) => t.id === caller.tenantId)?.slug ?? '', tenants } };
  },
});

/** POST /api/v1/session/tenant — act in another of one's tenants from the next request on. */
export const switchSessionTenantHandler = defineRoute({
  auth: { session: 'read' },
  body: z.object({ tenant: z.string().min(1).max(100) }).strict(),
  response: z.object({ tenant: TenantSchema }).strict(),
  handler: async ({ caller, body }) => {
    const userId = caller.kind === 'session' ? caller.userId : '';
    const switched = await switchTenant({ userId, slug: body.tenant });
    return { body: { tenant: switched.tenant }, headers: { 'set-cookie': switched.setCookie } };
  },
});
