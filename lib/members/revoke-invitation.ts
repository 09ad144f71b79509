import { db } from '../db';
import { AppError, NotFoundError } from '../errors';
import { recordAdminEvidence, type AdminActor } from '../evidence/record-admin-evidence';
import { invitationState, pendingInvitationWhere } from './invitation-state';
import { assertActorMayManage, lockTenantMembers, retryOnStaleRead, StaleRead } from './tenant-member-lock';
import type { FirstRecordId } from '../evidence/first-record-id';

/** Withdraws a pending invitation: its link stops working at once. */
export async function revokeInvitation(options: {
  tenantId: string;
  id: string;
  actor: AdminActor;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<{ id: string; email: string; role: string; revokedAt: Date }> {
  const { tenantId, actor } = options;
  return retryOnStaleRead(async () => {
    const invitation = await db().invitation.findFirst({ where: { id: options.id, tenantId } });
    if (!invitation) throw new NotFoundError('Invitation', options.id);
    const state = invitationState(invitation);
    if (state !== 'pending') throw new AppError('conflict', `This invitation can no longer be revoked: it is ${state}.`, { reason: state });
    const now = new Date();
    await recordAdminEvidence(
      {
        tenantId,
        kind: 'membership',
        action: 'invitation_revoked',
        actor,
        requestId: options.requestId,
        firstRecordId: options.firstRecordId,
        details: { invitation_id: invitation.id, email: invitation.email, role: invitation.role },
      },
      async (tx) => {
        await lockTenantMembers(tx, tenantId);
        await assertActorMayManage(tx, tenantId, actor);
        const revoked = await tx.invitation.updateMany({
          where: { id: invitation.id, tenantId, ...pendingInvitationWhere(now) },
          data: { revokedAt: now },
        });
        if (revoked.count !== 1) throw new StaleRead();
      },
    );
    return { id: invitation.id, email: invitation.email, role: invitation.role, revokedAt: now };
  });
}
