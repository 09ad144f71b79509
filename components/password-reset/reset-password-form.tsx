'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { FormProblem } from '../auth-frame';
import { NewPasswordFields, newPasswordFrom } from '../new-password-fields';
import { setPasswordThenSignIn } from '../invitation/sign-in-after-joining';

/**
 * Sets the new password with the link's token, then signs in with it (every earlier session of
 * the account has ended) and lands on the overview.
 */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = newPasswordFrom(new FormData(event.currentTarget));
    if ('problem' in typed) {
      setError(typed.problem);
      return;
    }
    setPending(true);
    setError(null);
    const failed = await setPasswordThenSignIn({
      url: '/api/v1/password-resets/complete',
      body: { token, password: typed.password },
      email,
      password: typed.password,
      // A used or expired link: the page says what now.
      refreshOn: ['password_reset_invalid'],
      notSet: 'The password could not be set. Try again.',
      setButNotSignedIn: 'Your password is set, but signing in failed. Sign in with your new password.',
    });
    if (failed) {
      setError(failed.problem);
      setPending(false);
      if (failed.refresh) router.refresh();
      return;
    }
    router.replace('/');
    router.refresh();
  }

  return (
    // method="post": a submit before the script has run (a slow network) was a GET that put what
    // was typed, password included, in the URL, the history and the server's access log.
    <form onSubmit={onSubmit} method="post" className="space-y-4">
      <NewPasswordFields idPrefix="reset" label="New password" />
      <FormProblem message={error} />
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? 'Setting it…' : 'Set password and sign in'}
      </button>
    </form>
  );
}
