import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getAuth, getSsoConfig } from '@/lib/auth/auth';
import { getSessionMember } from '@/lib/auth/session';
import { ssoErrorMessage } from '@/lib/auth/sso-messages';
import { SignInForm } from '@/components/sign-in-form';
import { SsoSignInButton } from '@/components/sso-sign-in-button';
import { SignOutButton } from '@/components/sign-out-button';

export const metadata: Metadata = { title: 'Sign in' };

type SearchParams = { error?: string | string[] };

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const requestHeaders = await headers();
  if (await getSessionMember(requestHeaders)) redirect('/');
  // Signed in, but a member of no tenant (removed from the last one while signed in elsewhere,
  // or an SSO sign-in that matched none): the dashboard sends them here, and the form alone
  // would say nothing of why signing in again leads back to it.
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  if (session) {
    return (
      <main className="flex min-h-screen items-center justify-center px-4">
        <div className="w-full max-w-sm">
          <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
          <div role="alert" className="card p-6 text-sm" data-testid="no-tenant">
            <h1 className="mb-2 text-xl font-semibold">No tenant to open</h1>
            <p className="mb-4 text-zinc-700">
              You are signed in as <span className="font-medium">{session.user.email}</span>, but you are no longer a member of any tenant
              here. An admin of your tenant can invite you again; sign out to use another account.
            </p>
            <SignOutButton />
          </div>
        </div>
      </main>
    );
  }
  const sso = getSsoConfig();
  const code = (await searchParams).error;
  // A failed SSO sign-in comes back here with Better Auth's or Toolgate's code in ?error=.
  const problem = ssoErrorMessage(Array.isArray(code) ? code[0] : code);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
        {problem && (
          <div
            role="alert"
            className={`mb-4 rounded-md border px-4 py-3 text-sm ${problem.refusal ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-red-200 bg-red-50 text-red-800'}`}
          >
            <h2 className="mb-1 font-semibold">{problem.title}</h2>
            <p>{problem.message}</p>
          </div>
        )}
        <div className="card p-6">
          <h1 className="mb-1 text-xl font-semibold">Sign in</h1>
          <p className="mb-6 text-sm text-zinc-600">Accounts are created by your tenant’s admin.</p>
          {sso && (
            <>
              <SsoSignInButton callbackURL="/" label={`Sign in with ${sso.name}`} />
              <p className="my-4 text-center text-xs tracking-wide text-zinc-500 uppercase">or with your password</p>
            </>
          )}
          <SignInForm />
          <Link href="/forgot-password" className="mt-4 inline-block text-sm text-zinc-600 underline" data-testid="forgot-password">
            Forgot your password?
          </Link>
        </div>
      </div>
    </main>
  );
}
