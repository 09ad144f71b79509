import type { Metadata } from 'next';
import { findPasswordReset, type PasswordResetState } from '@/lib/members/password-reset';
import { formatDate } from '@/components/format-date';
import { AuthFrame, UnusableLink } from '@/components/auth-frame';
import { ResetPasswordForm } from '@/components/password-reset/reset-password-form';

export const metadata: Metadata = { title: 'Set a new password' };

const UNUSABLE: Record<Exclude<PasswordResetState, 'pending'> | 'unknown', { title: string; text: string }> = {
  unknown: {
    title: 'This password reset link is not valid',
    text: 'Check that the whole link was copied. A newer link for you replaces this one; otherwise ask your Toolgate operator for a new link.',
  },
  used: {
    title: 'This password reset link has already been used',
    text: 'Sign in with the password it set. If that was not you, ask your Toolgate operator for a new link at once.',
  },
  expired: {
    title: 'This password reset link has expired',
    text: 'Reset links work for an hour. Ask your Toolgate operator for a new one.',
  },
};

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await findPasswordReset(token);
  if (!reset || reset.state !== 'pending') {
    const problem = UNUSABLE[reset ? (reset.state as Exclude<PasswordResetState, 'pending'>) : 'unknown'];
    return <UnusableLink title={problem.title} text={problem.text} testId="password-reset-problem" />;
  }
  return (
    <AuthFrame>
      <h1 className="mb-1 text-xl font-semibold">Set a new password</h1>
      <p className="mb-4 text-sm text-zinc-600">
        For <strong>{reset.email}</strong>. Setting it signs this account out everywhere. The link expires{' '}
        <span title={reset.expiresAt.toISOString()}>{formatDate(reset.expiresAt)}</span>.
      </p>
      <ResetPasswordForm token={token} email={reset.email} />
    </AuthFrame>
  );
}
