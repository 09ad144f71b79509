import { hashPassword } from 'better-auth/crypto';
import { db } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { passwordLengthProblem, passwordProblem } from '../auth/password-policy';
import { normaliseEmail } from './member-email';
import { createLinkToken, hashLinkToken, isWellFormedLinkToken, passwordResetUrl } from './link-token';

/** A reset link works for an hour: long enough to pass on, short enough that a forgotten one dies. */
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;

export type PasswordResetState = 'pending' | 'used' | 'expired';

export interface PasswordResetLookup {
  email: string;
  expiresAt: Date;
  state: PasswordResetState;
}

const REASON_MESSAGES: Record<Exclude<PasswordResetState, 'pending'> | 'unknown', string> = {
  unknown:
    'This password reset link is not valid: check that it was copied whole. A newer link for the same person replaces it; ask for a new one.',
  used: 'This password reset link has already been used. Sign in with the new password, or ask for a new link.',
  expired: 'This password reset link has expired (links work for an hour). Ask for a new one.',
};

export function passwordResetInvalid(reason: Exclude<PasswordResetState, 'pending'> | 'unknown'): AppError {
  return new AppError('password_reset_invalid', REASON_MESSAGES[reason], { reason });
}

function stateOf(row: { usedAt: Date | null; expiresAt: Date }, now: Date): PasswordResetState {
  if (row.usedAt) return 'used';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/**
 * A single-use link that sets a new password for the account with this email, for someone who
 * cannot sign in (the last admin who forgot theirs, a demo tenant whose first-start password was
 * not kept). Whoever holds the link can take the account over, so it is never in a request's
 * answer: printed for the operator (`toolgate members reset-password`), or mailed to the account's
 * own address (request-password-reset.ts). A newer link for the same person deletes the older
 * unused ones.
 * Accounts that sign in only through SSO have no password to reset.
 */
export async function createPasswordReset(options: { email: string; now?: Date }): Promise<{
  url: string;
  email: string;
  expiresAt: Date;
  tenants: string[];
}> {
  const email = normaliseEmail(options.email);
  const user = await db().user.findUnique({
    where: { email },
    select: {
      id: true,
      accounts: { where: { providerId: 'credential' }, select: { id: true } },
      memberships: { select: { tenant: { select: { slug: true } } }, orderBy: { createdAt: 'asc' } },
    },
  });
  if (!user) throw new AppError('not_found', `No account has the email ${email}.`);
  if (user.accounts.length === 0)
    throw new AppError('conflict', `${email} signs in only through SSO and has no password to reset.`, { reason: 'no_password' });
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000);
  const { token, tokenHash } = createLinkToken();
  await db().$transaction([
    db().passwordReset.deleteMany({ where: { userId: user.id, usedAt: null } }),
    db().passwordReset.create({ data: { userId: user.id, tokenHash, createdAt: now, expiresAt } }),
  ]);
  log.info('password reset link created', { user_id: user.id, expires_at: expiresAt.toISOString() });
  return { url: passwordResetUrl(token), email, expiresAt, tenants: user.memberships.map((m) => m.tenant.slug) };
}

/** The reset a link's token names, in whatever state it is; null when no reset has it. */
export async function findPasswordReset(token: string, now = new Date()): Promise<PasswordResetLookup | null> {
  const row = await findResetRow(token);
  return row && { email: row.email, expiresAt: row.expiresAt, state: stateOf(row, now) };
}

async function findResetRow(token: string) {
  if (!isWellFormedLinkToken(token)) return null;
  const row = await db().passwordReset.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    select: { id: true, userId: true, usedAt: true, expiresAt: true, user: { select: { email: true } } },
  });
  return row && { id: row.id, userId: row.userId, usedAt: row.usedAt, expiresAt: row.expiresAt, email: row.user.email };
}

/**
 * Sets the new password (the policy every password meets) and ends every session of the
 * account, so whoever was signed in with the old password is signed out. The link is claimed
 * first, in the same transaction: two submits of one link set one password.
 */
export async function completePasswordReset(options: {
  token: string;
  password: string;
}): Promise<{ email: string; sessionsEnded: number }> {
  // Before the link is even looked up.
  const length = passwordLengthProblem(options.password);
  if (length) throw new AppError('bad_request', `The password ${length}.`, { field: 'password' });
  const found = await findResetRow(options.token);
  if (!found) throw passwordResetInvalid('unknown');
  const state = stateOf(found, new Date());
  if (state !== 'pending') throw passwordResetInvalid(state);
  const weak = await passwordProblem(options.password, { email: found.email });
  if (weak) throw new AppError('bad_request', `The password ${weak}.`, { field: 'password' });
  const passwordHash = await hashPassword(options.password);
  const outcome = await db().$transaction(async (tx) => {
    const now = new Date();
    // Claimed by id: a row deleted since (a newer link replaced it) matches nothing and is answered unknown.
    const claimed = await tx.passwordReset.updateMany({
      where: { id: found.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) {
      const again = await tx.passwordReset.findUnique({ where: { id: found.id }, select: { usedAt: true, expiresAt: true } });
      throw passwordResetInvalid(again ? (stateOf(again, now) === 'expired' ? 'expired' : 'used') : 'unknown');
    }
    const updated = await tx.account.updateMany({
      where: { userId: found.userId, providerId: 'credential' },
      data: { password: passwordHash, updatedAt: now },
    });
    if (updated.count === 0)
      throw new AppError('conflict', `${found.email} no longer signs in with a password; nothing was changed.`, { reason: 'no_password' });
    const ended = await tx.session.deleteMany({ where: { userId: found.userId } });
    return { userId: found.userId, sessionsEnded: ended.count };
  });
  log.info('password reset', { user_id: outcome.userId, sessions_ended: outcome.sessionsEnded });
  return { email: found.email, sessionsEnded: outcome.sessionsEnded };
}
