import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getAuth, getSsoConfig } from '@/lib/auth/auth';
import { accountExistsFor, findInvitationByToken, type InvitationLookup } from '@/lib/members/find-invitation';
import { formatDate } from '@/components/format-date';
import { AuthFrame, UnusableLink } from '@/components/auth-frame';
import { SsoSignInButton } from '@/components/sso-sign-in-button';
import { AcceptInvitationButton, InviteSignInForm, InviteSignOutButton, SetPasswordForm } from '@/components/invitation/invitation-forms';

export const metadata: Metadata = { title: 'Invitation' };

const UNUSABLE: Record<'unknown' | 'used' | 'expired' | 'revoked', { title: string; text: string }> = {
  unknown: {
    title: 'This invitation link is not valid',
    text: 'Check that the whole link was copied. If it was, ask an admin of your tenant for a new invitation.',
  },
  used: {
    title: 'This invitation has already been used',
    text: 'If you accepted it, sign in. Otherwise ask an admin of your tenant for a new invitation.',
  },
  expired: {
    title: 'This invitation has expired',
    text: 'Invitation links work for a limited time. Ask an admin of your tenant for a new one.',
  },
  revoked: {
    title: 'This invitation was withdrawn',
    text: 'An admin revoked this link, or sent a newer one. Use the newest link you received, or ask an admin.',
  },
};

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitationByToken(token);
  if (!invitation || invitation.state !== 'pending') {
    const problem = UNUSABLE[invitation ? (invitation.state as Exclude<InvitationLookup['state'], 'pending'>) : 'unknown'];
    return <UnusableLink title={problem.title} text={problem.text} testId="invitation-problem" />;
  }
  const [session, hasAccount] = await Promise.all([
    (await getAuth()).api.getSession({ headers: await headers() }),
    accountExistsFor(invitation.email),
  ]);
  const sso = getSsoConfig();
  const signedInAs = session?.user.email.toLowerCase() ?? null;
  return (
    <AuthFrame>
      <h1 className="mb-1 text-xl font-semibold">Join {invitation.tenant.name}</h1>
      <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="invitation-summary">
        <dt className="text-zinc-500">Tenant</dt>
        <dd className="font-medium">{invitation.tenant.name}</dd>
        <dt className="text-zinc-500">Role</dt>
        <dd className="font-medium">{invitation.role}</dd>
        <dt className="text-zinc-500">Email</dt>
        <dd className="font-medium">{invitation.email}</dd>
        <dt className="text-zinc-500">Expires</dt>
        <dd title={invitation.expiresAt.toISOString()}>{formatDate(invitation.expiresAt)}</dd>
      </dl>
      {signedInAs === invitation.email ? (
        <AcceptInvitationButton token={token} tenantName={invitation.tenant.name} />
      ) : signedInAs ? (
        <div className="space-y-3 text-sm">
          <p>
            You are signed in as <strong>{signedInAs}</strong>, but this invitation is for <strong>{invitation.email}</strong>. Sign out,
            then sign in as {invitation.email} to accept.
          </p>
          <InviteSignOutButton />
        </div>
      ) : (
        <>
          {sso && (
            <>
              <SsoSignInButton callbackURL="/" label={`Sign in with ${sso.name}`} />
              <p className="my-4 text-center text-xs tracking-wide text-zinc-500 uppercase">
                {hasAccount ? 'or with your password' : 'or set a password'}
              </p>
            </>
          )}
          {hasAccount ? <InviteSignInForm email={invitation.email} /> : <SetPasswordForm token={token} email={invitation.email} />}
        </>
      )}
    </AuthFrame>
  );
}
