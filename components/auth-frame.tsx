import Link from 'next/link';
import type { ReactNode } from 'react';

/** The signed-out pages' card (invitation, password reset): the name, then one card. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center text-lg font-semibold tracking-tight">Toolgate</p>
        <div className="card p-6">{children}</div>
      </div>
    </main>
  );
}

/** A form's problem, read out as it appears. */
export function FormProblem({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  );
}

/** A link (invitation, password reset) that cannot be used: why, what to do, and the way to sign-in. */
export function UnusableLink({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <AuthFrame>
      <h1 className="mb-2 text-xl font-semibold" data-testid={testId}>
        {title}
      </h1>
      <p className="mb-4 text-sm text-zinc-600">{text}</p>
      <Link href="/sign-in" className="text-sm font-medium underline">
        Go to sign-in
      </Link>
    </AuthFrame>
  );
}
