import type { Metadata } from 'next';
import { db } from '@/lib/db';
import { getSsoConfig } from '@/lib/auth/auth';
import { listMemberTenants } from '@/lib/auth/session';
import { ChangePasswordForm } from '@/components/account/change-password-form';
import { SignOutOthersButton } from '@/components/account/sign-out-others-button';
import { requireMember } from '../require-member';

export const metadata: Metadata = { title: 'Your account' };

export default async function AccountPage() {
  const member = await requireMember();
  const [tenants, accounts, sessions] = await Promise.all([
    listMemberTenants(member.user.id),
    db().account.findMany({ where: { userId: member.user.id }, select: { providerId: true } }),
    db().session.count({ where: { userId: member.user.id, expiresAt: { gt: new Date() } } }),
  ]);
  // This browser's session is one of them.
  const others = Math.max(0, sessions - 1);
  const hasPassword = accounts.some((a) => a.providerId === 'credential');
  const ssoName = getSsoConfig()?.name ?? 'SSO';
  const signsInWithSso = accounts.some((a) => a.providerId !== 'credential');
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">One account for every tenant you belong to.</p>
      <section className="card mb-8 p-5" aria-labelledby="account-details">
        <h2 id="account-details" className="mb-3 font-semibold">
          Details
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-zinc-500">Email</dt>
          <dd className="font-medium" data-testid="account-email">
            {member.user.email}
          </dd>
          <dt className="text-zinc-500">Name</dt>
          <dd>{member.user.name}</dd>
          <dt className="text-zinc-500">Signs in with</dt>
          <dd>{[hasPassword ? 'a password' : null, signsInWithSso ? ssoName : null].filter(Boolean).join(' and ') || 'nothing yet'}</dd>
          <dt className="text-zinc-500">Tenants</dt>
          <dd>
            <ul>
              {tenants.map((t) => (
                <li key={t.id}>
                  {t.name} <span className="text-zinc-500">as {t.role}</span>
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      </section>
      <section className="card mb-8 p-5" aria-labelledby="account-sessions">
        <h2 id="account-sessions" className="mb-1 font-semibold">
          Sessions
        </h2>
        <p className="mb-3 text-sm text-zinc-600" data-testid="account-sessions">
          {others === 0
            ? 'You are signed in here only.'
            : `You are signed in here and in ${others} other ${others === 1 ? 'session' : 'sessions'} (other browsers or devices).`}
        </p>
        <SignOutOthersButton others={others} />
      </section>
      <section className="card p-5" aria-labelledby="account-password">
        <h2 id="account-password" className="mb-3 font-semibold">
          Password
        </h2>
        {hasPassword ? (
          <ChangePasswordForm />
        ) : (
          <p className="text-sm text-zinc-600" data-testid="no-password">
            You sign in through {ssoName}, so there is no Toolgate password to change.
          </p>
        )}
      </section>
    </>
  );
}
