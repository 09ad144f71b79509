'use client';

import { usePathname, useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { TENANT_FIELD } from '@/lib/auth/page-tenant';
import { pageTenant, setPageTenant } from './page-tenant';

const PageTenantContext = createContext<string | null>(null);

/**
 * Names the tenant the dashboard was rendered for to everything below it: forms get it as a
 * hidden field (TenantField), fetches as a header (pageTenantHeaders). So a page acts in its own
 * tenant even after the person switched tenants in another tab, which changes the cookie for
 * every tab.
 *
 * `several`: the person has more than one tenant. Then, after each navigation within the tab,
 * it asks which tenant the cookie names now: the layout (and this provider) is not rendered
 * again on navigation, but the new page is, for the cookie's tenant. When the two differ it
 * refreshes, so the sidebar, the forms and the fetches follow the page that is shown.
 */
export function PageTenantProvider({ tenantId, several, children }: { tenantId: string; several: boolean; children: ReactNode }) {
  // A layout effect runs before any passive effect below it, where the pages' first fetches start.
  useLayoutEffect(() => {
    setPageTenant(tenantId);
    return () => {
      if (pageTenant() === tenantId) setPageTenant(null);
    };
  }, [tenantId]);

  const pathname = usePathname();
  const router = useRouter();
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    const previous = shownFor.current;
    shownFor.current = pathname;
    if (!several || previous === null || previous === pathname) return;
    let cancelled = false;
    void (async () => {
      try {
        const response = await fetch('/api/v1/session/tenants', {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
          cache: 'no-store',
        });
        if (!response.ok) return;
        const body = (await response.json()) as { current?: string; tenants?: { id: string; slug: string }[] };
        const now = body.tenants?.find((t) => t.slug === body.current)?.id;
        if (!cancelled && now !== undefined && now !== tenantId) router.refresh();
      } catch {
        /* offline for a moment: the next navigation asks again */
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [pathname, several, tenantId, router]);

  return <PageTenantContext.Provider value={tenantId}>{children}</PageTenantContext.Provider>;
}

/** Goes in every dashboard form whose Server Action acts in a tenant (app/(dashboard)/authorize-action.ts). */
export function TenantField() {
  const tenantId = useContext(PageTenantContext);
  return tenantId ? <input type="hidden" name={TENANT_FIELD} value={tenantId} /> : null;
}
