import { createTransport } from 'nodemailer';
import { env, publicBaseUrl } from '../env';
import { log } from '../log';

export type InvitationMailResult = { sent: true } | { sent: false; reason: 'not_configured' | 'failed'; error?: string };

/**
 * E-mails an invitation link through TOOLGATE_SMTP_URL (nodemailer). Without it nothing is sent
 * and the admin passes the link on themselves. A failure is reported, never thrown: the
 * invitation exists either way and its link was shown to the admin.
 */
export async function sendInvitationMail(options: {
  to: string;
  url: string;
  tenantName: string;
  role: string;
  expiresAt: Date;
}): Promise<InvitationMailResult> {
  const e = env();
  if (!e.TOOLGATE_SMTP_URL) return { sent: false, reason: 'not_configured' };
  // Short timeouts: the admin's request waits for this; nodemailer's defaults run to minutes.
  const transport = createTransport({
    url: e.TOOLGATE_SMTP_URL,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({
      from: e.TOOLGATE_MAIL_FROM ?? `Toolgate <toolgate@${new URL(publicBaseUrl()).hostname}>`,
      to: options.to,
      subject: `You are invited to ${options.tenantName} on Toolgate`,
      text: [
        `You have been invited to join ${options.tenantName} on Toolgate as ${options.role}.`,
        '',
        'Open this link to accept and set your password (or sign in, if you already have an account):',
        options.url,
        '',
        `The link works once and expires on ${options.expiresAt.toUTCString()}.`,
        'If you did not expect this invitation, ignore this message.',
      ].join('\n'),
    });
    return { sent: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error('invitation mail failed', { error: message.slice(0, 300) });
    return { sent: false, reason: 'failed', error: message.slice(0, 300) };
  } finally {
    transport.close();
  }
}
