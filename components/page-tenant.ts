import { TENANT_HEADER } from '@/lib/auth/page-tenant';

/**
 * The tenant this tab's dashboard was rendered for, for the fetch helpers (plain functions, not
 * hooks). One tab shows one tenant's dashboard at a time; PageTenantProvider (the dashboard
 * layout) sets it, and sets it again when the person switches tenants in this tab.
 */
let current: string | null = null;

export function setPageTenant(tenantId: string | null): void {
  current = tenantId;
}

export function pageTenant(): string | null {
  return current;
}

/**
 * The header that makes a same-origin API call act in the page's tenant rather than in whatever
 * tenant the cookie names by now (another tab may have switched it); none outside the dashboard.
 */
export function pageTenantHeaders(): Record<string, string> {
  return current ? { [TENANT_HEADER]: current } : {};
}
