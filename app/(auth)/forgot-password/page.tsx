import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthFrame } from '@/components/auth-frame';
import { ForgotPasswordForm } from '@/components/password-reset/forgot-password-form';
import { OperatorResetNote } from '@/components/password-reset/operator-reset-note';
import { mailConfigured } from '@/lib/members/send-mail';

export const metadata: Metadata = { title: 'Forgot your password?' };
// Whether the instance sends mail is a setting of the running server, not of the build.
export const dynamic = 'force-dynamic';

export default function ForgotPasswordPage() {
  return (
    <AuthFrame>
      <h1 className="mb-1 text-xl font-semibold">Forgot your password?</h1>
      {mailConfigured() ? (
        <>
          <p className="mb-4 text-sm text-zinc-600">
            Give the address you sign in with; a link to set a new password is mailed to it. Accounts that sign in through SSO have no
            password here.
          </p>
          <ForgotPasswordForm />
        </>
      ) : (
        <OperatorResetNote />
      )}
      <Link href="/sign-in" className="mt-4 inline-block text-sm font-medium underline">
        Back to sign-in
      </Link>
    </AuthFrame>
  );
}
