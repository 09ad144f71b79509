import { getAuth } from '@/lib/auth/auth';

/** The test environment's TOOLGATE_PUBLIC_URL: cookie-authenticated writes must come from it. */
export const ORIGIN = 'http://localhost:3000';

/** Signs in through Better Auth itself, as the sign-in form does; returns the Cookie header to send. */
export async function signIn(email: string, password: string): Promise<{ status: number; cookie: string }> {
  const response = await (
    await getAuth()
  ).handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ email, password }),
    }),
  );
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { status: response.status, cookie };
}

/** Headers of a browser request from the dashboard, signed in with `cookie`. */
export function asSession(cookie: string, extra: Record<string, string> = {}): Record<string, string> {
  return { cookie, origin: ORIGIN, ...extra };
}
