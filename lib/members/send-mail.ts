import { createTransport } from 'nodemailer';
import { env, publicBaseUrl } from '../env';
import { log } from '../log';

export type MailResult = { sent: true } | { sent: false; reason: 'not_configured' | 'failed'; error?: string };

/** Whether this instance sends mail at all (TOOLGATE_SMTP_URL). */
export function mailConfigured(): boolean {
  return Boolean(env().TOOLGATE_SMTP_URL);
}

/**
 * One plain-text message through TOOLGATE_SMTP_URL (nodemailer), from TOOLGATE_MAIL_FROM. Without
 * it nothing is sent. A failure is reported (and logged under `what`), never thrown: what the mail
 * carries exists either way.
 */
export async function sendMail(options: { to: string; subject: string; text: string; what: string }): Promise<MailResult> {
  const e = env();
  if (!e.TOOLGATE_SMTP_URL) return { sent: false, reason: 'not_configured' };
  // Short timeouts: a request may wait for this; nodemailer's defaults run to minutes.
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
      subject: options.subject,
      text: options.text,
    });
    return { sent: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`${options.what} mail failed`, { error: message.slice(0, 300) });
    return { sent: false, reason: 'failed', error: message.slice(0, 300) };
  } finally {
    transport.close();
  }
}
