import 'server-only';
import { cache } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionMember, NotTenantMemberError, type SessionMember } from '@/lib/auth/session';
import { actionTenant } from './action-tenant';

/**
 * The signed-in member, or a redirect to sign-in. Every dashboard page calls this itself rather
 * than trusting the layout: layouts are not re-rendered on client navigation, so a layout-only
 * check would not protect a page. `cache` makes the layout and page share one lookup.
 */
export const requireMember = cache(async (): Promise<SessionMember> => {
  const requestHeaders = await headers();
  const member = await memberFor(requestHeaders, actionTenant(requestHeaders));
  if (!member) redirect('/sign-in');
  return member;
});

/**
 * After a Server Action, the tenant it acted in (app/(dashboard)/action-tenant.ts); otherwise,
 * or should the person have left that tenant in between, the one the cookie names.
 */
async function memberFor(requestHeaders: Headers, acted: string | undefined): Promise<SessionMember | null> {
  if (acted !== undefined) {
    try {
      return await getSessionMember(requestHeaders, { tenantId: acted });
    } catch (error) {
      if (!(error instanceof NotTenantMemberError)) throw error;
    }
  }
  return getSessionMember(requestHeaders);
}
