import { expect, type APIRequestContext } from '@playwright/test';

/**
 * Signs in through the API (the form itself is covered by the smoke test). Better Auth allows
 * 3 sign-ins per 10 seconds from one address, and the specs sign in several people in a row
 * from 127.0.0.1, so a 429 is waited out as its X-Retry-After header says, as a person would.
 */
export async function signIn(
  request: APIRequestContext,
  baseURL: string | undefined,
  who: { email: string; password: string },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const response = await request.post('/api/auth/sign-in/email', {
      headers: { origin: baseURL ?? '' },
      data: { email: who.email, password: who.password },
    });
    if (response.status() === 429 && attempt < 3) {
      const wait = Number(response.headers()['x-retry-after'] ?? '10');
      await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(wait) ? Math.min(Math.max(wait, 1), 15) : 10) * 1000));
      continue;
    }
    expect(response.status()).toBe(200);
    return;
  }
}
