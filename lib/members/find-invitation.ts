import { db } from '../db';
import { AppError } from '../errors';
import { isRole, type Role } from '../tenants/roles';
import { hashLinkToken, isWellFormedLinkToken } from './link-token';
import { invitationState, type InvitationState } from './invitation-state';

export interface InvitationLookup {
  id: string;
  tenant: { id: string; slug: string; name: string };
  email: string;
  role: Role;
  expiresAt: Date;
  state: InvitationState;
}

/** The invitation a link's token names, in whatever state it is; null when no invitation has it. */
export async function findInvitationByToken(token: string): Promise<InvitationLookup | null> {
  if (!isWellFormedLinkToken(token)) return null;
  const row = await db().invitation.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    include: { tenant: { select: { id: true, slug: true, name: true } } },
  });
  if (!row || !isRole(row.role)) return null;
  return { id: row.id, tenant: row.tenant, email: row.email, role: row.role, expiresAt: row.expiresAt, state: invitationState(row) };
}

const REASON_MESSAGES: Record<Exclude<InvitationState, 'pending'> | 'unknown', string> = {
  unknown: 'This invitation link is not valid. Check that it was copied whole, or ask an admin for a new one.',
  used: 'This invitation link has already been used. Sign in instead, or ask an admin for a new one.',
  expired: 'This invitation link has expired. Ask an admin for a new one.',
  revoked: 'This invitation link was withdrawn by an admin. Ask them for a new one.',
};

export function invitationInvalid(reason: Exclude<InvitationState, 'pending'> | 'unknown'): AppError {
  return new AppError('invitation_invalid', REASON_MESSAGES[reason], { reason });
}

/** The pending invitation a token names, or the `invitation_invalid` error saying why not. */
export async function getPendingInvitationOrThrow(token: string): Promise<InvitationLookup> {
  const found = await findInvitationByToken(token);
  if (!found) throw invitationInvalid('unknown');
  if (found.state !== 'pending') throw invitationInvalid(found.state);
  return found;
}

/** Whether the invited email already has a Toolgate account (it then signs in to accept). */
export async function accountExistsFor(email: string): Promise<boolean> {
  return (await db().user.count({ where: { email } })) > 0;
}
