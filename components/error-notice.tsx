'use client';

import Link from 'next/link';

/**
 * The server's error digest, when there is one: it names the failure in the server's log
 * (lib/log) without saying anything about it. The message itself is never shown: in production
 * Next replaces a server error's message anyway, and a client error's may carry internals.
 */
export function errorDigest(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('digest' in error)) return null;
  const digest = (error as { digest?: unknown }).digest;
  return typeof digest === 'string' && digest.length > 0 && digest.length <= 64 ? digest : null;
}

/** What an error boundary shows: what happened in plain words, a way to try again, the reference for support. */
export function ErrorNotice({
  title = 'This page could not be shown',
  message = 'Nothing was changed. This is usually a passing problem, such as the database being briefly unreachable; try again in a moment.',
  error,
  retry,
}: {
  title?: string;
  message?: string;
  error: unknown;
  retry: () => void;
}) {
  const digest = errorDigest(error);
  return (
    <div role="alert" className="card p-6 text-sm" data-testid="error-notice">
      <h1 className="mb-1 text-base font-semibold">{title}</h1>
      <p className="text-zinc-600">{message}</p>
      {digest && (
        <p className="mt-3 text-xs text-zinc-600">
          If it keeps happening, give your administrator this reference:{' '}
          <code className="rounded bg-zinc-100 px-1 font-mono text-zinc-800" data-testid="error-digest">
            {digest}
          </code>
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" onClick={retry} className="btn-primary">
          Try again
        </button>
        <Link href="/" className="btn-secondary">
          Go to the overview
        </Link>
      </div>
    </div>
  );
}
