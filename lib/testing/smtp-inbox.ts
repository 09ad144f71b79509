import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message a test's SMTP server received. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server (smtp-server) on a loopback port, keeping what it receives and the
 * credentials it saw; it accepts `mailer` / `mail-secret` only.
 */
export async function startSmtpInbox(): Promise<{ port: number; inbox: ReceivedMail[]; logins: string[]; close(): Promise<void> }> {
  const inbox: ReceivedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
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
  const port = (server.server.address() as AddressInfo).port;
  return { port, inbox, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The message body as text: headers dropped, soft line breaks and =XX escapes of quoted-printable undone. */
export function mailBodyText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return /content-transfer-encoding:\s*quoted-printable/i.test(raw)
    ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
}
