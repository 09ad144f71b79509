import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { mailBodyText, startSmtpInbox, type ReceivedMail } from '@/lib/testing/smtp-inbox';
import { acceptInvitationHandler as accept } from '@/lib/api/handlers/invitations';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let port = 0;
let inbox: ReceivedMail[] = [];
let logins: string[] = [];
let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  ({ port, inbox, logins } = smtp);
  t = await createTestTenant({ slug: 'mail-tenant' });
  await db().tenant.update({ where: { id: t.tenant.id }, data: { name: 'Mail Tenant' } });
});

afterAll(async () => {
  delete process.env.TOOLGATE_SMTP_URL;
  delete process.env.TOOLGATE_MAIL_FROM;
  resetEnvForTests();
  await smtp.close();
});

function useSmtp(url: string | undefined) {
  if (url === undefined) delete process.env.TOOLGATE_SMTP_URL;
  else process.env.TOOLGATE_SMTP_URL = url;
  process.env.TOOLGATE_MAIL_FROM = 'Toolgate <noreply@toolgate.test>';
  resetEnvForTests();
}

describe('invitation mail', () => {
  it('is delivered through TOOLGATE_SMTP_URL, and the link in it works', async () => {
    useSmtp(`smtp://mailer:mail-secret@127.0.0.1:${port}`);
    const res = await call(invite, { key: t.adminKey, body: { email: 'Mailed@Mail.test', role: 'approver' } });
    expect(res.status).toBe(201);
    expect(res.body.email_sent).toBe(true);
    expect(res.body.email_not_sent_reason).toBeUndefined();
    expect(logins).toEqual(['mailer:mail-secret']);
    expect(inbox).toHaveLength(1);
    const message = inbox[0] as ReceivedMail;
    expect(message.from).toBe('noreply@toolgate.test');
    expect(message.to).toEqual(['mailed@mail.test']);
    expect(message.raw).toMatch(/^Subject: You are invited to Mail Tenant on Toolgate\r?$/m);
    const text = mailBodyText(message.raw);
    expect(text).toContain('join Mail Tenant on Toolgate as approver');
    const link = /(http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(link).toBe(res.body.invitation_url);

    const token = (link as string).split('/').pop() as string;
    const accepted = await call(accept, { body: { token, password: 'from-the-mail' } });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ email: 'mailed@mail.test', role: 'approver', tenant: { slug: 'mail-tenant' } });
  });

  it('a mail server that refuses still leaves a working invitation, and says the mail was not sent', async () => {
    useSmtp(`smtp://mailer:wrong-secret@127.0.0.1:${port}`);
    const res = await call(invite, { key: t.adminKey, body: { email: 'refused@mail.test', role: 'viewer' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email_sent: false, email_not_sent_reason: 'failed' });
    expect(await db().invitation.count({ where: { tenantId: t.tenant.id, email: 'refused@mail.test', revokedAt: null } })).toBe(1);
    expect(inbox.filter((m) => m.to.includes('refused@mail.test'))).toEqual([]);
  });

  it('without TOOLGATE_SMTP_URL nothing is sent', async () => {
    useSmtp(undefined);
    const before = inbox.length;
    const res = await call(invite, { key: t.adminKey, body: { email: 'unmailed@mail.test', role: 'viewer' } });
    expect(res.body).toMatchObject({ email_sent: false, email_not_sent_reason: 'not_configured' });
    expect(inbox).toHaveLength(before);
  });
});
