import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { addMember } from '@/lib/tenants/add-member';
import { createPasswordReset, findPasswordReset, PASSWORD_RESET_TTL_SECONDS } from '@/lib/members/password-reset';
import { completePasswordResetHandler as complete } from '@/lib/api/handlers/password-resets';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { signIn } from './member-sessions';

// The operator's way back in for someone who cannot sign in: a single-use link (made by
// `toolgate members reset-password`) that sets a new password and ends the account's sessions.

let tenantId = '';
let n = 0;

beforeAll(async () => {
  tenantId = (await createTestTenant({ slug: 'reset-a' })).tenant.id;
});

async function member(password = 'the-old-password') {
  const email = `reset-${++n}@reset.test`;
  await addMember({ tenantId, email, password, role: 'admin' });
  return email;
}

function tokenOf(url: string): string {
  return new URL(url).pathname.split('/').pop() as string;
}

function expectInvalid(res: { status: number; body: { error: { code: string; details: { reason: string } } } }, reason: string) {
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('password_reset_invalid');
  expect(res.body.error.details.reason).toBe(reason);
}

describe('a password reset link', () => {
  it('sets the new password, ends every session of the account, and works once', async () => {
    const email = await member();
    const first = await signIn(email, 'the-old-password');
    const second = await signIn(email, 'the-old-password');
    expect([first.status, second.status]).toEqual([200, 200]);
    const user = await db().user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    expect(await db().session.count({ where: { userId: user.id } })).toBe(2);

    const reset = await createPasswordReset({ email: `  ${email.toUpperCase()} ` });
    expect(reset.email).toBe(email);
    expect(reset.tenants).toEqual(['reset-a']);
    expect(reset.url).toMatch(/^http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]{43}$/);
    // Only the token's digest is stored.
    const token = tokenOf(reset.url);
    const rows = await db().passwordReset.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toContain(token);

    const res = await call(complete, { body: { token, password: 'a-brand-new-passphrase' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email, sessions_ended: 2 });
    expect(await db().session.count({ where: { userId: user.id } })).toBe(0);
    expect((await signIn(email, 'the-old-password')).status).toBe(401);
    expect((await signIn(email, 'a-brand-new-passphrase')).status).toBe(200);

    expectInvalid(await call(complete, { body: { token, password: 'yet-another-passphrase' } }), 'used');
    expect((await signIn(email, 'a-brand-new-passphrase')).status).toBe(200);
    expect((await findPasswordReset(token))?.state).toBe('used');
  });

  it('refuses a weak or mistyped password without using the link up', async () => {
    const email = await member();
    const token = tokenOf((await createPasswordReset({ email })).url);
    for (const [password, message] of [
      ['qwertyuiop', 'The password is one of the most commonly used passwords; choose a longer or less predictable one.'],
      [email, 'The password must not be your email address.'],
    ] as const) {
      const res = await call(complete, { body: { token, password } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', message, details: { field: 'password' } });
    }
    expect((await call(complete, { body: { token, password: 'short' } })).status).toBe(400);
    expect((await call(complete, { body: { token, password: 'x'.repeat(129) } })).status).toBe(400);
    expect((await signIn(email, 'the-old-password')).status).toBe(200);
    expect((await call(complete, { body: { token, password: 'a-brand-new-passphrase' } })).status).toBe(200);
  });

  it('answers unknown, malformed, replaced and expired links with their reason, and changes nothing', async () => {
    const email = await member();
    expectInvalid(await call(complete, { body: { token: 'A'.repeat(43), password: 'a-brand-new-passphrase' } }), 'unknown');
    expectInvalid(await call(complete, { body: { token: '../../etc/passwd', password: 'a-brand-new-passphrase' } }), 'unknown');

    const older = tokenOf((await createPasswordReset({ email })).url);
    const newer = tokenOf((await createPasswordReset({ email })).url);
    expectInvalid(await call(complete, { body: { token: older, password: 'a-brand-new-passphrase' } }), 'unknown');

    const past = new Date(Date.now() - PASSWORD_RESET_TTL_SECONDS * 1000 - 1000);
    const expired = tokenOf((await createPasswordReset({ email, now: past })).url);
    expectInvalid(await call(complete, { body: { token: expired, password: 'a-brand-new-passphrase' } }), 'expired');
    // The expired one replaced the newer one too.
    expectInvalid(await call(complete, { body: { token: newer, password: 'a-brand-new-passphrase' } }), 'unknown');
    expect((await signIn(email, 'the-old-password')).status).toBe(200);
  });

  it('sets one password when two requests race for the same link', async () => {
    const email = await member();
    const token = tokenOf((await createPasswordReset({ email })).url);
    const answers = await Promise.all([
      call(complete, { body: { token, password: 'first-racing-passphrase' } }),
      call(complete, { body: { token, password: 'second-racing-passphrase' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
    const winner = answers[0]?.status === 200 ? 'first-racing-passphrase' : 'second-racing-passphrase';
    const loser = winner === 'first-racing-passphrase' ? 'second-racing-passphrase' : 'first-racing-passphrase';
    expect((await signIn(email, winner)).status).toBe(200);
    expect((await signIn(email, loser)).status).toBe(401);
  });

  it('is not made for an address with no account, an account without a password (SSO only), or a non-address', async () => {
    await expect(createPasswordReset({ email: 'nobody@reset.test' })).rejects.toMatchObject({ code: 'not_found' });
    const id = randomUUID();
    await db().user.create({ data: { id, email: 'sso-only@reset.test', name: 'SSO', emailVerified: true } });
    await db().account.create({ data: { userId: id, accountId: 'sub-1', providerId: 'toolgate-sso' } });
    const refusal = await createPasswordReset({ email: 'sso-only@reset.test' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'conflict', details: { reason: 'no_password' } });
    await expect(createPasswordReset({ email: 'not an address' })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await db().passwordReset.count({ where: { userId: id } })).toBe(0);
  });

  it('refuses a body with anything else in it', async () => {
    const res = await call(complete, { body: { token: 'A'.repeat(43), password: 'a-brand-new-passphrase', email: 'x@y.z' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
  });
});
