// How a dashboard page names the tenant it was rendered for, in a module without server
// imports: the client components that send it and the server that checks it share these.
//
// The `toolgate_tenant` cookie names the tenant a person acts in *now*; switching tenants in one
// tab changes it for every open tab. A page keeps acting in the tenant it was rendered for by
// naming it on each request: its forms in a hidden field, its fetches in a header. The server
// honours the name only for a tenant the person belongs to (lib/auth/session.ts).

/** The header a page's same-origin fetches name their tenant in. Ignored for API keys. */
export const TENANT_HEADER = 'x-toolgate-tenant';

/** The hidden field a dashboard form names its tenant in. */
export const TENANT_FIELD = 'tenant_id';

/** A tenant id as Toolgate makes them (cuid); anything else names no tenant of anyone's. */
const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isTenantIdShaped(value: string): boolean {
  return TENANT_ID.test(value);
}
