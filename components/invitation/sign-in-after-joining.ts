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
