import { sendMail, type MailResult } from './send-mail';

export type InvitationMailResult = MailResult;

/**
 * E-mails an invitation link through TOOLGATE_SMTP_URL. Without it nothing is sent and the admin
 * passes the link on themselves; the invitation exists either way and its link was shown to the
 * admin.
 */
export async function sendInvitationMail(options: {
  to: string;
  url: string;
  tenantName: string;
  role: string;
  expiresAt: Date;
}): Promise<InvitationMailResult> {
  return sendMail({
    what: 'invitation',
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
}
