import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { resetAuthForTests } from '@/lib/auth/auth';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant } from '@/lib/testing/fixtures';

const saved = process.env.TOOLGATE_PUBLIC_URL;
let email = '';

function usePublicUrl(url: string) {
  process.env.TOOLGATE_PUBLIC_URL = url;
  resetEnvForTests();
  resetAuthForTests();
}

async function signIn(base: string) {
  const response = await authPost(
    new Request(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email, password: 'a-long-password' }),
    }),
  );
  expect(response.status).toBe(200);
  const session = response.headers.getSetCookie().find((cookie) => cookie.split('=')[0]?.endsWith('better-auth.session_token'));
  if (!session) throw new Error('no session cookie was set');
  return session.split(';').map((part) => part.trim());
}

beforeAll(async () => {
  const t = await createTestTenant();
  email = `cookie-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role: 'viewer' });
});

afterEach(() => usePublicUrl(saved ?? 'http://localhost:3000'));

describe('session cookies', () => {
  it('are Secure (and __Secure- prefixed) when the public URL is https', async () => {
    usePublicUrl('https://toolgate.example.com');
    const parts = await signIn('https://toolgate.example.com');
    expect(parts[0]).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(parts).toContain('Secure');
    expect(parts).toContain('HttpOnly');
    expect(parts.map((p) => p.toLowerCase())).toContain('samesite=lax');
  });

  it('are not Secure on a plain-http instance, where a browser would drop them', async () => {
    usePublicUrl('http://localhost:3000');
    const parts = await signIn('http://localhost:3000');
    expect(parts[0]).toMatch(/^better-auth\.session_token=/);
    expect(parts).not.toContain('Secure');
    expect(parts).toContain('HttpOnly');
  });
});

describe('profile edits', () => {
  it('are not served: a signed-in person cannot rename themselves through Better Auth (names come from the invitation, at most 100 characters)', async () => {
    usePublicUrl('http://localhost:3000');
    const parts = await signIn('http://localhost:3000');
    const cookie = parts[0] as string;
    const response = await authPost(
      new Request('http://localhost:3000/api/auth/update-user', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
        body: JSON.stringify({ name: 'N'.repeat(500_000) }),
      }),
    );
    expect(response.status).toBe(404);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(user.name.length).toBeLessThanOrEqual(100);
  });
});
