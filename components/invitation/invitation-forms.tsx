'use client';

import { useRouter } from 'next/navigation';
import { useActionState, useState, type FormEvent } from 'react';
import { acceptInvitationAction, type AcceptState } from '@/app/(auth)/invite/[token]/actions';
import { authClient } from '../auth-client';
import { signInErrorMessage } from '../sign-in-messages';
import { setPasswordThenSignIn } from './sign-in-after-joining';
import { NewPasswordFields, newPasswordFrom } from '../new-password-fields';
import { FormProblem } from '../auth-frame';

/**
 * No account yet: the invitee chooses a password (and optionally a name). The API creates the
 * account and the membership; then they are signed in like anyone else and land on the overview.
 */
export function SetPasswordForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typed = newPasswordFrom(form);
    if ('problem' in typed) {
      setError(typed.problem);
      return;
    }
    const { password } = typed;
    const name = String(form.get('name') ?? '').trim();
    setPending(true);
    setError(null);
    const failed = await setPasswordThenSignIn({
      url: '/api/v1/invitations/accept',
      body: { token, password, ...(name ? { name } : {}) },
      email,
      password,
      // A used, expired or revoked link, or an account made meanwhile: the page says what now.
      refreshOn: ['invitation_invalid', 'conflict'],
      notSet: 'The invitation could not be accepted. Try again.',
      setButNotSignedIn: 'Your account is ready, but signing in failed. Sign in with your new password.',
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
      <p className="text-sm text-zinc-600">Choose a password for {email} to accept.</p>
      <div className="space-y-1">
        <label htmlFor="invite-name" className="block text-sm font-medium">
          Your name <span className="font-normal text-zinc-500">(optional)</span>
        </label>
        <input id="invite-name" name="name" maxLength={100} autoComplete="name" className="input" />
      </div>
      <NewPasswordFields idPrefix="invite" />
      <FormProblem message={error} />
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? 'Joining…' : 'Set password and join'}
      </button>
    </form>
  );
}

/** An account exists: sign in as the invited email, and the page then offers Accept. */
export function InviteSignInForm({ email }: { email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setPending(true);
    setError(null);
    try {
      const result = await authClient.signIn.email({ email, password });
      if (result.error) {
        setError(signInErrorMessage(result.error, 'Wrong password.'));
        setPending(false);
        return;
      }
      router.refresh();
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    // method="post": a submit before the script has run (a slow network) was a GET that put what
    // was typed, password included, in the URL, the history and the server's access log.
    <form onSubmit={onSubmit} method="post" className="space-y-4">
      <p className="text-sm text-zinc-600">
        You already have an account: sign in as <strong>{email}</strong> to accept.
      </p>
      <div className="space-y-1">
        <label htmlFor="invite-signin-password" className="block text-sm font-medium">
          Password
        </label>
        <input id="invite-signin-password" name="password" type="password" required autoComplete="current-password" className="input" />
      </div>
      <FormProblem message={error} />
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? 'Signing in…' : `Sign in as ${email}`}
      </button>
    </form>
  );
}

export function AcceptInvitationButton({ token, tenantName }: { token: string; tenantName: string }) {
  const [state, formAction, pending] = useActionState<AcceptState, FormData>(acceptInvitationAction, { status: 'idle' });
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="token" value={token} />
      <FormProblem message={state.status === 'error' ? state.message : null} />
      <button type="submit" disabled={pending} className="btn-primary w-full">
        {pending ? 'Joining…' : `Accept and join ${tenantName}`}
      </button>
    </form>
  );
}

/** Signs out and stays on the invitation, which then offers the right sign-in. */
export function InviteSignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      className="btn-secondary"
      onClick={async () => {
        setPending(true);
        await authClient.signOut();
        router.refresh();
        setPending(false);
      }}
    >
      {pending ? 'Signing out…' : 'Sign out'}
    </button>
  );
}
