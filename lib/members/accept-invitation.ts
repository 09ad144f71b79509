import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { db, type Tx } from '../db';
import { AppError } from '../errors';
import { recordAdminEvidence } from '../evidence/record-admin-evidence';
import { isRole, type Role } from '../tenants/roles';
import { memberEmailSchema } from './member-email';
import { DISPLAY_NAME_PROBLEM, hasHiddenCharacters } from './display-name';
import { invitationState, pendingInvitationWhere } from './invitation-state';
import { findInvitationByToken, getPendingInvitationOrThrow, invitationInvalid } from './find-invitation';
import type { FirstRecordId } from '../evidence/first-record-id';
import { passwordLengthProblem, passwordProblem } from '../auth/password-policy';

export const MAX_NAME_LENGTH = 100;

interface Joining {
  invitation: { id: string; tenantId: string; email: string; role: Role };
  userId: string;
  role: Role;
  /** A person with no account yet: their user and credential rows are written in the same transaction. */
  newUser?: { name: string; passwordHash: string };
  requestId?: string;
  firstRecordId?: FirstRecordId;
}

/**
 * Claims the invitation (at most once, however many requests race for it), writes the
 * membership, and records `invitation_accepted` in the tenant's chain, all in one transaction.
 */
async function joinTenant(joining: Joining): Promise<void> {
  const { invitation, userId, role, newUser } = joining;
  const now = new Date();
  await recordAdminEvidence(
    {
      tenantId: invitation.tenantId,
      kind: 'membership',
      action: 'invitation_accepted',
      actor: { kind: 'user', userId },
      requestId: joining.requestId,
      firstRecordId: joining.firstRecordId,
      details: {
        invitation_id: invitation.id,
        email: invitation.email,
        user_id: userId,
        role,
        invited_role: invitation.role,
        new_account: newUser !== undefined,
      },
    },
    async (tx) => {
      const claimed = await tx.invitation.updateMany({
        where: { id: invitation.id, ...pendingInvitationWhere(now) },
        data: { acceptedAt: now, acceptedUserId: userId },
      });
      if (claimed.count !== 1) throw await whyUnusable(tx, invitation.id, now);
      if (newUser) {
        if (await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } })) throw accountExists(invitation.email);
        await tx.user.create({ data: { id: userId, email: invitation.email, name: newUser.name, emailVerified: true } });
        await tx.account.create({ data: { userId, accountId: userId, providerId: 'credential', password: newUser.passwordHash } });
      }
      const existing = await tx.membership.findUnique({
        where: { tenantId_userId: { tenantId: invitation.tenantId, userId } },
        select: { role: true },
      });
      if (existing)
        throw new AppError('conflict', `You are already a member of this tenant (as ${existing.role}).`, {
          reason: 'already_member',
          role: existing.role,
        });
      await tx.membership.create({ data: { tenantId: invitation.tenantId, userId, role } });
    },
  );
}

async function whyUnusable(tx: Tx, id: string, now: Date): Promise<AppError> {
  const row = await tx.invitation.findUnique({ where: { id }, select: { acceptedAt: true, revokedAt: true, expiresAt: true } });
  const state = row ? invitationState(row, now) : 'revoked';
  return invitationInvalid(state === 'pending' ? 'used' : state);
}

function accountExists(email: string): AppError {
  return new AppError(
    'conflict',
    `An account for ${email} already exists. Sign in as ${email}, then open the invitation link again to accept it.`,
    { reason: 'account_exists' },
  );
}

/**
 * A person without an account accepts by setting a password: their user, Better Auth credential
 * account (hashed with Better Auth's own `hashPassword`) and membership are created together.
 * Someone who already has an account signs in and accepts with `acceptInvitation` instead, so
 * a link cannot be used to set another account's password.
 */
export async function acceptInvitationWithPassword(options: {
  token: string;
  password: string;
  name?: string;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<{ tenantId: string; role: Role; email: string }> {
  // Before the link is even looked up.
  const length = passwordLengthProblem(options.password);
  if (length) throw new AppError('bad_request', `The password ${length}.`, { field: 'password' });
  const invitation = await getPendingInvitationOrThrow(options.token);
  if (await db().user.findUnique({ where: { email: invitation.email }, select: { id: true } })) {
    // The account may be the one this very link just created (a double submit): say "used".
    const now = await findInvitationByToken(options.token);
    if (now && now.state !== 'pending') throw invitationInvalid(now.state);
    throw accountExists(invitation.email);
  }
  const weak = await passwordProblem(options.password, { email: invitation.email });
  if (weak) throw new AppError('bad_request', `The password ${weak}.`, { field: 'password' });
  const given = options.name?.trim().slice(0, MAX_NAME_LENGTH);
  if (given && hasHiddenCharacters(given)) throw new AppError('bad_request', `Your name ${DISPLAY_NAME_PROBLEM}.`, { field: 'name' });
  const name = given || (invitation.email.split('@')[0] ?? invitation.email);
  const passwordHash = await hashPassword(options.password);
  await joinTenant({
    invitation: { id: invitation.id, tenantId: invitation.tenant.id, email: invitation.email, role: invitation.role },
    userId: randomUUID(),
    role: invitation.role,
    newUser: { name, passwordHash },
    requestId: options.requestId,
    firstRecordId: options.firstRecordId,
  });
  return { tenantId: invitation.tenant.id, role: invitation.role, email: invitation.email };
}

/** A signed-in person accepts an invitation addressed to their own email. */
export async function acceptInvitation(options: {
  token: string;
  userId: string;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<{ tenantId: string; role: Role }> {
  const invitation = await getPendingInvitationOrThrow(options.token);
  const user = await db().user.findUnique({ where: { id: options.userId }, select: { email: true } });
  if (!user) throw new AppError('unauthorized', 'Sign in to accept this invitation.');
  if (user.email.toLowerCase() !== invitation.email) {
    throw new AppError(
      'forbidden',
      `This invitation is for ${invitation.email}; you are signed in as ${user.email}. Sign out and sign in as ${invitation.email}.`,
      { reason: 'email_mismatch' },
    );
  }
  await joinTenant({
    invitation: { id: invitation.id, tenantId: invitation.tenant.id, email: invitation.email, role: invitation.role },
    userId: options.userId,
    role: invitation.role,
    requestId: options.requestId,
    firstRecordId: options.firstRecordId,
  });
  return { tenantId: invitation.tenant.id, role: invitation.role };
}

/**
 * For sign-in through the company's identity provider: accepts every pending, unexpired,
 * unrevoked invitation for exactly this (already verified) email, each with its own evidence
 * record, and returns the tenants joined. `roleFor` may map the invited role (e.g. from a
 * groups claim). Invitations that cannot be accepted (already a member there, or claimed by a
 * racing request) are skipped, not thrown.
 */
export async function acceptInvitationsForEmail(options: {
  userId: string;
  email: string;
  roleFor?: (invitedRole: Role) => Role;
}): Promise<{ tenantId: string; role: Role }[]> {
  const email = memberEmailSchema.safeParse(options.email);
  if (!email.success) return [];
  const invitations = await db().invitation.findMany({
    where: { email: email.data, ...pendingInvitationWhere(new Date()) },
    orderBy: { createdAt: 'asc' },
  });
  const joined: { tenantId: string; role: Role }[] = [];
  for (const invitation of invitations) {
    if (!isRole(invitation.role)) continue;
    const role = options.roleFor ? options.roleFor(invitation.role) : invitation.role;
    try {
      await joinTenant({
        invitation: { id: invitation.id, tenantId: invitation.tenantId, email: invitation.email, role: invitation.role },
        userId: options.userId,
        role,
      });
      joined.push({ tenantId: invitation.tenantId, role });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'invitation_invalid' || error.code === 'conflict')) continue;
      throw error;
    }
  }
  return joined;
}

/** Whether anyone has invited this email (lets SSO tell an uninvited person whom to ask). */
export async function hasPendingInvitation(email: string): Promise<boolean> {
  const parsed = memberEmailSchema.safeParse(email);
  if (!parsed.success) return false;
  return (await db().invitation.count({ where: { email: parsed.data, ...pendingInvitationWhere(new Date()) } })) > 0;
}
