import 'server-only';
import { cache } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionMember, type SessionMember } from '@/lib/auth/session';

/**
 * The signed-in member, or a redirect to sign-in. Every dashboard page calls this itself rather
 * than trusting the layout: layouts are not re-rendered on client navigation, so a layout-only
 * check would not protect a page. `cache` makes the layout and page share one lookup.
 */
export const requireMember = cache(async (): Promise<SessionMember> => {
  const member = await getSessionMember(await headers());
  if (!member) redirect('/sign-in');
  return member;
});
