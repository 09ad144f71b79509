import { beforeAll, describe, expect, it } from 'vitest';
import { betterAuthHandler } from '@/lib/api/handlers/better-auth';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ORIGIN, signIn } from './member-sessions';

// Better Auth's change-password checks a new password's length only; Toolgate refuses there what
// it refuses on an invitation (lib/auth/password-policy.ts), and the old password keeps working.

const EMAIL = 'pw-change@policy.test';
let cookie = '';

async function changePassword(currentPassword: string, newPassword: string) {
  const response = await betterAuthHandler(
    new Request(`${ORIGIN}/api/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, cookie },
      body: JSON.stringify({ currentPassword, newPassword }),
    }),
  );
  return { status: response.status, body: (await response.json().catch(() => null)) as { code?: string; message?: string } | null };
}

beforeAll(async () => {
  const t = await createTestTenant();
  await addMember({ tenantId: t.tenant.id, email: EMAIL, password: 'a-long-password', role: 'author' });
  const session = await signIn(EMAIL, 'a-long-password');
  expect(session.status).toBe(200);
  cookie = session.cookie;
});

describe('POST /api/auth/change-password', () => {
  it("refuses a commonly used password and the person's own address, leaving the old password in place", async () => {
    for (const [next, message] of [
      ['QWERTYUIOP', 'The password is one of the most commonly used passwords; choose a longer or less predictable one.'],
      [EMAIL, 'The password must not be your email address.'],
    ] as const) {
      const answer = await changePassword('a-long-password', next);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'PASSWORD_NOT_ALLOWED', message });
      expect((await signIn(EMAIL, next)).status).toBe(401);
    }
    expect((await signIn(EMAIL, 'a-long-password')).status).toBe(200);
  });

  it('answers a signed-out caller 401 as before, whatever the new password', async () => {
    const kept = cookie;
    cookie = '';
    try {
      expect((await changePassword('a-long-password', 'qwertyuiop')).status).toBe(401);
    } finally {
      cookie = kept;
    }
  });

  it('changes to a password the policy allows', async () => {
    expect((await changePassword('a-long-password', 'a-much-better-passphrase')).status).toBe(200);
    expect((await signIn(EMAIL, 'a-much-better-passphrase')).status).toBe(200);
  });
});
