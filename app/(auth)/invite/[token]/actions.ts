'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { AppError } from '@/lib/errors';
import { getAuth } from '@/lib/auth/auth';
import { TENANT_COOKIE, tenantCookieOptions } from '@/lib/auth/session';
import { acceptInvitation } from '@/lib/members/accept-invitation';

export type AcceptState = { status: 'idle' } | { status: 'error'; message: string };

/**
 * A signed-in person accepts an invitation to their own email. Server Actions are public
 * endpoints: the session is read again here, and acceptInvitation checks the email matches.
 * They land in the tenant they just joined.
 */
export async function acceptInvitationAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const session = await (await getAuth()).api.getSession({ headers: await headers() });
  if (!session) return { status: 'error', message: 'Your session has ended. Sign in again to accept.' };
  let tenantId: string;
  try {
    ({ tenantId } = await acceptInvitation({ token: String(form.get('token') ?? '').slice(0, 200), userId: session.user.id }));
  } catch (error) {
    if (error instanceof AppError) return { status: 'error', message: error.message };
    throw error;
  }
  (await cookies()).set(TENANT_COOKIE, tenantId, tenantCookieOptions());
  redirect('/');
}
