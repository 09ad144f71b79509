'use client';

import { useState } from 'react';
import { authClient } from './auth-client';
import { TOO_MANY_ATTEMPTS } from './sign-in-messages';
import { SSO_PROVIDER_ID } from '@/lib/auth/sso-config';
import { ssoErrorMessage } from '@/lib/auth/sso-messages';

function messageFor(error: { status: number; message?: string }): string {
  // 404: Better Auth has no usable provider, because discovery at the identity provider failed.
  if (error.status === 404) return ssoErrorMessage('oauth_provider_not_found')!.message;
  if (error.status === 429) return TOO_MANY_ATTEMPTS;
  return error.message || 'Single sign-on is not available right now. Try again, or sign in with your password.';
}

/**
 * Starts the OpenID Connect sign-in. Better Auth 1.7 registers the generic OAuth provider as a
 * social provider, so the flow is `signIn.social` (there is no separate client plugin). Render it
 * only when the server says SSO is configured; the label comes from TOOLGATE_OIDC_NAME.
 */
export function SsoSignInButton({ callbackURL, label = 'Sign in with SSO' }: { callbackURL: string; label?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onClick() {
    setPending(true);
    setError(null);
    try {
      // errorCallbackURL: a refused or failed callback lands on the sign-in page with ?error=<code>.
      const result = await authClient.signIn.social({ provider: SSO_PROVIDER_ID, callbackURL, errorCallbackURL: '/sign-in' });
      if (result.error) {
        setError(messageFor(result.error));
        setPending(false);
      }
      // On success the browser is already on its way to the identity provider.
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      <button type="button" onClick={onClick} disabled={pending} className="btn-secondary w-full">
        {pending ? 'Redirecting…' : label}
      </button>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
