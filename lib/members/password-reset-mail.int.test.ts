import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { mailBodyText, startSmtpInbox } from '@/lib/testing/smtp-inbox';
import { addMember } from '@/lib/tenants/add-member';
import { completePasswordResetHandler as complete, requestPasswordResetHandler as request } from '@/lib/api/handlers/password-resets';
import { passwordResetMailsSettled, RESET_MAIL_COOLDOWN_MS } from './request-password-reset';
import { signIn } from '@/lib/api/tests/member-sessions';

// "Forgot your password?" on an instance that sends mail, against a real SMTP server: the link
// arrives for an account with a password, nothing arrives otherwise, and the answer is the same.

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let tenantId = '';
let n = 0;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  tenantId = (await createTestTenant({ slug: 'reset-mail' })).tenant.id;
});

afterAll(async () => {
  delete process.env.TOOLGATE_SMTP_URL;
  resetEnvForTests();
  await smtp.close();
});

function useSmtp(on: boolean) {
  if (on) process.env.TOOLGATE_SMTP_URL = `smtp://mailer:mail-secret@127.0.0.1:${smtp.port}`;
  else delete process.env.TOOLGATE_SMTP_URL;
  resetEnvForTests();
}

/** Each test asks from its own address, so the per-address limit of one does not spill into another. */
function ask(email: string, address = `10.0.0.${++n}`) {
  return call(request, { body: { email }, headers: { 'x-toolgate-client-address': address } });
}

const ACCEPTED = {
  status: 'accepted',
  message: 'If an account with a password has this address, a link to set a new one is on its way. It works for an hour.',
};

describe('POST /api/v1/password-resets', () => {
  it('mails a link to an account with a password; the link sets the new password', async () => {
    useSmtp(true);
    await addMember({ tenantId, email: 'mailed-reset@mail.test', password: 'the-old-password', role: 'viewer' });
    const res = await ask('  Mailed-Reset@Mail.TEST ');
    expect(res.status).toBe(202);
    expect(res.body).toEqual(ACCEPTED);
    await passwordResetMailsSettled();
    const mails = smtp.inbox.filter((m) => m.to.includes('mailed-reset@mail.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.raw).toMatch(/^Subject: Set a new Toolgate password\r?$/m);
    const link = /(http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]{43})/.exec(mailBodyText(mails[0]?.raw ?? ''))?.[1];
    expect(link).toBeTruthy();
    const token = (link as string).split('/').pop() as string;
    expect((await call(complete, { body: { token, password: 'the-mailed-passphrase' } })).status).toBe(200);
    expect((await signIn('mailed-reset@mail.test', 'the-mailed-passphrase')).status).toBe(200);
  });

  it('answers the same for no account and an SSO-only account, and mails nothing', async () => {
    useSmtp(true);
    const id = randomUUID();
    await db().user.create({ data: { id, email: 'sso-reset@mail.test', name: 'SSO', emailVerified: true } });
    await db().account.create({ data: { userId: id, accountId: 'sub-reset', providerId: 'toolgate-sso' } });
    const before = smtp.inbox.length;
    for (const email of ['nobody-reset@mail.test', 'sso-reset@mail.test']) {
      const res = await ask(email);
      expect(res.status).toBe(202);
      expect(res.body).toEqual(ACCEPTED);
    }
    await passwordResetMailsSettled();
    expect(smtp.inbox).toHaveLength(before);
    expect(await db().passwordReset.count({ where: { userId: id } })).toBe(0);
  });

  it('mails one account at most once every two minutes, however many addresses ask', async () => {
    useSmtp(true);
    await addMember({ tenantId, email: 'bombed@mail.test', password: 'the-old-password', role: 'viewer' });
    for (let i = 0; i < 4; i++) expect((await ask('bombed@mail.test')).status).toBe(202);
    await passwordResetMailsSettled();
    expect(smtp.inbox.filter((m) => m.to.includes('bombed@mail.test'))).toHaveLength(1);
    // Two minutes on, the next request mails again.
    const user = await db().user.findUniqueOrThrow({ where: { email: 'bombed@mail.test' } });
    await db().passwordReset.updateMany({
      where: { userId: user.id },
      data: { createdAt: new Date(Date.now() - RESET_MAIL_COOLDOWN_MS - 1000) },
    });
    expect((await ask('bombed@mail.test')).status).toBe(202);
    await passwordResetMailsSettled();
    expect(smtp.inbox.filter((m) => m.to.includes('bombed@mail.test'))).toHaveLength(2);
  });

  it('allows an address 5 requests a minute, then 429 with Retry-After', async () => {
    useSmtp(true);
    const address = '192.0.2.77';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(`limit-${i}@mail.test`, address));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = answers[5];
    expect(limited?.body.error.code).toBe('too_many_requests');
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address is not held back.
    expect((await ask('limit-other@mail.test', '192.0.2.78')).status).toBe(202);
    await passwordResetMailsSettled();
  });

  it('refuses a non-address (400) and, without TOOLGATE_SMTP_URL, says to ask the operator (409)', async () => {
    useSmtp(true);
    const bad = await ask('not an address');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    useSmtp(false);
    const off = await ask('mailed-reset@mail.test');
    expect(off.status).toBe(409);
    expect(off.body.error).toMatchObject({ code: 'conflict', details: { reason: 'mail_not_configured' } });
    expect(off.body.error.message).toContain('ask whoever runs Toolgate for a password reset link');
  });

  it('leaves the link made when the mail server refuses, and answers the same', async () => {
    process.env.TOOLGATE_SMTP_URL = `smtp://mailer:wrong-secret@127.0.0.1:${smtp.port}`;
    resetEnvForTests();
    await addMember({ tenantId, email: 'refused-reset@mail.test', password: 'the-old-password', role: 'viewer' });
    const res = await ask('refused-reset@mail.test');
    expect(res.status).toBe(202);
    await passwordResetMailsSettled();
    expect(smtp.inbox.filter((m) => m.to.includes('refused-reset@mail.test'))).toEqual([]);
    expect((await signIn('refused-reset@mail.test', 'the-old-password')).status).toBe(200);
  });
});
