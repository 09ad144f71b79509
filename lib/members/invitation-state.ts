/** Where an invitation stands; only `pending` can be accepted or revoked. */
export type InvitationState = 'pending' | 'used' | 'expired' | 'revoked';

export function invitationState(
  invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now = new Date(),
): InvitationState {
  if (invitation.acceptedAt) return 'used';
  if (invitation.revokedAt) return 'revoked';
  if (invitation.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/** The where-clause of invitations that can still be accepted. */
export function pendingInvitationWhere(now: Date) {
  return { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
}
