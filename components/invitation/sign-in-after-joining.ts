'use client';

import { authClient } from '@/components/auth-client';

/** Retries after a 429 at most this many times, each waiting what the limit says (15 s at most). */
const RETRIES = 2;

/**
 * Signs in the person who has just set their password. The sign-in limit (3 in 10 s per address)
 * is shared by everyone behind one address, so the account's first sign-in could meet it and
 * the page said "signing in failed" to someone who had done nothing wrong; it waits the limit out
 * (X-Retry-After) as a person would, then answers as Better Auth does.
 */
export async function signInAfterJoining(email: string, password: string): Promise<Awaited<ReturnType<typeof authClient.signIn.email>>> {
  for (let attempt = 0; ; attempt++) {
    let waitSeconds = 10;
    const result = await authClient.signIn.email(
      { email, password },
      {
        onError: (context) => {
          const advertised = Number(context.response.headers.get('x-retry-after'));
          if (Number.isFinite(advertised) && advertised > 0) waitSeconds = advertised;
        },
      },
    );
    if (result.error?.status !== 429 || attempt >= RETRIES) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitSeconds, 15) * 1000));
  }
}

/**
 * A signed-out page that sets a password (accepting an invitation, a reset link): POSTs `body`
 * to `url`, then signs in with the new password. Null once signed in; otherwise what to tell the
 * person, and whether the page should reload because the link can no longer be used (`refreshOn`
 * names those error codes).
 */
export async function setPasswordThenSignIn(options: {
  url: string;
  body: Record<string, unknown>;
  email: string;
  password: string;
  refreshOn: readonly string[];
  notSet: string;
  setButNotSignedIn: string;
}): Promise<{ problem: string; refresh: boolean } | null> {
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(options.body),
    });
    if (!response.ok) {
      const answer = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      const code = answer?.error?.code;
      return { problem: answer?.error?.message ?? options.notSet, refresh: code !== undefined && options.refreshOn.includes(code) };
    }
    const signedIn = await signInAfterJoining(options.email, options.password);
    return signedIn.error ? { problem: options.setButNotSignedIn, refresh: false } : null;
  } catch {
    return { problem: 'Could not reach the server. Check your connection and try again.', refresh: false };
  }
}
