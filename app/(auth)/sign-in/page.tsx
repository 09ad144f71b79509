import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionMember } from '@/lib/auth/session';
import { SignInForm } from '@/components/sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage() {
  if (await getSessionMember(await headers())) redirect('/');
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
        <div className="card p-6">
          <h1 className="mb-1 text-xl font-semibold">Sign in</h1>
          <p className="mb-6 text-sm text-zinc-600">Accounts are created by your tenant’s admin.</p>
          <SignInForm />
        </div>
      </div>
    </main>
  );
}
