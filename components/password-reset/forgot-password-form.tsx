'use client';

import { useState, type FormEvent } from 'react';
import { FormProblem } from '../auth-frame';

/** Asks for a reset link by mail; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    setPending(true);
    setError(null);
    try {
      const response = await fetch('/api/v1/password-resets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      const body = (await response.json().catch(() => null)) as { message?: string; error?: { message?: string } } | null;
      if (!response.ok) setError(body?.error?.message ?? 'The request could not be sent. Try again.');
      else setDone(body?.message ?? 'If an account has this address, a link is on its way.');
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
    }
    setPending(false);
  }

  if (done)
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        {done} Check your mail, and its spam folder.
      </p>
    );
  return (
    // method="post": a submit before the script has run (a slow network) was a GET that put what
    // was typed, password included, in the URL, the history and the server's access log.
    <form onSubmit={onSubmit} method="post" className="space-y-4">
      <div className="space-y-1">
        <label htmlFor="forgot-email" className="block text-sm font-medium">
          Email
        </label>
        <input id="forgot-email" name="email" type="email" required maxLength={254} autoComplete="email" className="input" />
      </div>
      <FormProblem message={error} />
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? 'Sending…' : 'Mail me a link'}
      </button>
    </form>
  );
}
