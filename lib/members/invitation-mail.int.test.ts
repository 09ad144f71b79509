import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { acceptInvitationHandler as accept } from '@/lib/api/handlers/invitations';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';

/** A real SMTP server on a loopback port, keeping what it receives and the credentials it saw. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let server: SMTPServer;
let port = 0;
const inbox: Received[] = [];
const logins: string[] = [];
let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, and credentials allowed without TLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      if (auth.username === 'mailer' && auth.password === 'mail-secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
  t = await createTestTenant({ slug: 'mail-tenant' });
  await db().tenant.update({ where: { id: t.tenant.id }, data: { name: 'Mail Tenant' } });
});

afterAll(async () => {
  delete process.env.TOOLGATE_SMTP_URL;
  delete process.env.TOOLGATE_MAIL_FROM;
  resetEnvForTests();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function useSmtp(url: string | undefined) {
  if (url === undefined) delete process.env.TOOLGATE_SMTP_URL;
  else process.env.TOOLGATE_SMTP_URL = url;
  process.env.TOOLGATE_MAIL_FROM = 'Toolgate <noreply@toolgate.test>';
  resetEnvForTests();
}

/** The message body as text: headers dropped, soft line breaks and =XX escapes of quoted-printable undone. */
function bodyText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return /content-transfer-encoding:\s*quoted-printable/i.test(raw)
    ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
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
    const message = inbox[0] as Received;
    expect(message.from).toBe('noreply@toolgate.test');
    expect(message.to).toEqual(['mailed@mail.test']);
    expect(message.raw).toMatch(/^Subject: You are invited to Mail Tenant on Toolgate\r?$/m);
    const text = bodyText(message.raw);
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
