'use client';

import { useState, type FormEvent } from 'react';
import { authClient } from '../auth-client';
import { FormProblem } from '../auth-frame';
import { NewPasswordFields, newPasswordFrom } from '../new-password-fields';
import { signInErrorMessage } from '../sign-in-messages';

/**
 * Better Auth's change-password (the policy is checked there too, lib/auth/auth.ts). Other
 * sessions are signed out unless the person says otherwise: changing a password because it may
 * have leaked should end the sessions made with it.
 */
export function ChangePasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setDone(null);
    const typed = newPasswordFrom(form);
    if ('problem' in typed) {
      setError(typed.problem);
      return;
    }
    const revokeOtherSessions = form.get('others') === 'on';
    setPending(true);
    setError(null);
    try {
      const result = await authClient.changePassword({
        currentPassword: String(form.get('current') ?? ''),
        newPassword: typed.password,
        revokeOtherSessions,
      });
      if (result.error) {
        setError(
          result.error.code === 'INVALID_PASSWORD'
            ? 'The current password is wrong.'
            : signInErrorMessage(result.error, 'Your session has ended. Sign in again to change your password.'),
        );
      } else {
        formElement.reset();
        setDone(revokeOtherSessions ? 'Password changed. Your other sessions are signed out.' : 'Password changed.');
      }
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
    }
    setPending(false);
  }

  return (
    // method="post": a submit before the script has run must not put passwords in the URL.
    <form onSubmit={onSubmit} method="post" className="max-w-sm space-y-4">
      <div className="space-y-1">
        <label htmlFor="change-current" className="block text-sm font-medium">
          Current password
        </label>
        <input id="change-current" name="current" type="password" required autoComplete="current-password" className="input" />
      </div>
      <NewPasswordFields idPrefix="change" label="New password" />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="others" defaultChecked />
        Sign out my other sessions
      </label>
      <FormProblem message={error} />
      {done && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      <button type="submit" disabled={pending} className="btn-primary">
        {pending ? 'Changing…' : 'Change password'}
      </button>
    </form>
  );
}
