import { db } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { takeRequestSlot } from '../auth/request-limit';
import { normaliseEmail } from './member-email';
import { createPasswordReset } from './password-reset';
import { mailConfigured, sendMail } from './send-mail';

/** Requests one address may make: enough for a typo or two, too few to mail-bomb through. */
export const RESET_REQUESTS_PER_ADDRESS = { max: 5, windowMs: 60_000 } as const;
/** One mail per account this often at most, however many addresses ask for it. */
export const RESET_MAIL_COOLDOWN_MS = 2 * 60_000;

/** Mails waiting past this many are dropped (and logged): the queue is memory. */
const MAX_QUEUED = 1_000;

// One reset mail at a time in this process: the check for a recent link and the making of the next
// one must not interleave, or four quick requests for one account mailed it twice.
let queue: Promise<void> = Promise.resolve();
let queued = 0;

/**
 * "Forgot your password?" on an instance that sends mail: a reset link is mailed to the address
 * if an account with a password has it. The answer is the same whether or not one does, and it
 * comes before the lookup and the mail (which run after it), so neither its words nor its timing
 * tell a caller which addresses have accounts.
 */
export async function requestPasswordReset(options: { email: string; clientAddress: string | null }): Promise<void> {
  if (!mailConfigured())
    throw new AppError(
      'conflict',
      'This instance does not send mail (TOOLGATE_SMTP_URL is not set): ask whoever runs Toolgate for a password reset link.',
      { reason: 'mail_not_configured' },
    );
  const email = normaliseEmail(options.email);
  const slot = await takeRequestSlot({ key: `password-reset:${options.clientAddress ?? 'unknown'}`, ...RESET_REQUESTS_PER_ADDRESS });
  if (!slot.allowed)
    throw new AppError(
      'too_many_requests',
      `Too many password reset requests from this address; try again in ${slot.retryAfterSeconds} s.`,
      { retry_after_seconds: slot.retryAfterSeconds },
      { 'retry-after': String(slot.retryAfterSeconds) },
    );
  if (queued >= MAX_QUEUED) {
    log.warn('password reset request dropped: too many mails waiting', { queued });
    return;
  }
  queued += 1;
  queue = queue
    .then(() => mailResetLink(email))
    .catch((error: unknown) =>
      log.error('password reset mail failed', { error: error instanceof Error ? error.message.slice(0, 300) : String(error) }),
    )
    .finally(() => {
      queued -= 1;
    });
}

async function mailResetLink(email: string): Promise<void> {
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, accounts: { where: { providerId: 'credential' }, select: { id: true } } },
  });
  if (!user || user.accounts.length === 0) {
    log.info('password reset requested for an address with no password account');
    return;
  }
  const recent = await db().passwordReset.findFirst({
    where: { userId: user.id, createdAt: { gt: new Date(Date.now() - RESET_MAIL_COOLDOWN_MS) } },
    select: { id: true },
  });
  if (recent) {
    log.info('password reset mail not sent: one was made for this account in the last 2 minutes', { user_id: user.id });
    return;
  }
  const reset = await createPasswordReset({ email });
  const mail = await sendMail({
    what: 'password reset',
    to: reset.email,
    subject: 'Set a new Toolgate password',
    text: [
      `Someone, hopefully you, asked to set a new password for ${reset.email} on Toolgate.`,
      '',
      'Open this link to choose a new one:',
      reset.url,
      '',
      `The link works once and expires on ${reset.expiresAt.toUTCString()}. Setting a password signs you out everywhere.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ].join('\n'),
  });
  if (mail.sent) log.info('password reset mail sent', { user_id: user.id });
}

/** Resolves once every reset mail already asked for is sent or has failed (tests; shutting down). */
export async function passwordResetMailsSettled(): Promise<void> {
  await queue;
}
