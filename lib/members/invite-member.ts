import { randomUUID } from 'node:crypto';
import { db } from '../db';
import { env } from '../env';
import { AppError } from '../errors';
import { recordAdminEvidence, type AdminActor } from '../evidence/record-admin-evidence';
import type { Role } from '../tenants/roles';
import { normaliseEmail } from './member-email';
import { createLinkToken, invitationUrl } from './link-token';
import { pendingInvitationWhere } from './invitation-state';
import { actorRef } from './member-actor';
import { assertActorMayManage, lockTenantMembers, retryOnStaleRead, StaleRead } from './tenant-member-lock';
import type { InvitationSummary } from './list-members';
import { sendInvitationMail, type InvitationMailResult } from './send-invitation-mail';
import type { FirstRecordId } from '../evidence/first-record-id';

/**
 * Invites a person by email with a role. The link's token is returned here and never again
 * (only its SHA-256 is stored); it is single-use and expires after
 * TOOLGATE_INVITATION_TTL_SECONDS. Inviting someone who already has a pending invitation
 * revokes that link and issues a new one; inviting a member is a 409. The link is also
 * e-mailed when TOOLGATE_SMTP_URL is set (`mail` says whether that worked).
 */
export async function inviteMember(options: {
  tenantId: string;
  email: string;
  role: Role;
  actor: AdminActor;
  requestId?: string;
  firstRecordId?: FirstRecordId;
}): Promise<{ invitation: InvitationSummary; token: string; url: string; mail: InvitationMailResult }> {
  const { tenantId, role, actor } = options;
  const email = normaliseEmail(options.email);
  const created = await retryOnStaleRead(async () => {
    const now = new Date();
    const [member, pending] = await Promise.all([
      db().membership.findFirst({ where: { tenantId, user: { email } }, select: { role: true } }),
      db().invitation.findMany({ where: { tenantId, email, ...pendingInvitationWhere(now) }, select: { id: true } }),
    ]);
    if (member)
      throw new AppError('conflict', `${email} is already a member of this tenant (as ${member.role}).`, {
        reason: 'already_member',
        role: member.role,
      });
    const replaced = pending.map((p) => p.id);
    const id = randomUUID();
    const { token, tokenHash } = createLinkToken();
    const expiresAt = new Date(now.getTime() + env().TOOLGATE_INVITATION_TTL_SECONDS * 1000);
    const invitedBy = actorRef(actor);
    await recordAdminEvidence(
      {
        tenantId,
        kind: 'membership',
        action: 'member_invited',
        actor,
        requestId: options.requestId,
        firstRecordId: options.firstRecordId,
        details: {
          invitation_id: id,
          email,
          role,
          expires_at: expiresAt.toISOString(),
          ...(replaced.length > 0 ? { replaced_invitation_ids: replaced } : {}),
        },
      },
      async (tx) => {
        await lockTenantMembers(tx, tenantId);
        await assertActorMayManage(tx, tenantId, actor);
        if (await tx.membership.findFirst({ where: { tenantId, user: { email } }, select: { id: true } })) throw new StaleRead();
        const revoked = await tx.invitation.updateMany({
          where: { tenantId, email, id: { in: replaced }, ...pendingInvitationWhere(now) },
          data: { revokedAt: now },
        });
        if (revoked.count !== replaced.length) throw new StaleRead();
        if ((await tx.invitation.count({ where: { tenantId, email, ...pendingInvitationWhere(now) } })) > 0) throw new StaleRead();
        await tx.invitation.create({ data: { id, tenantId, email, role, tokenHash, invitedBy, createdAt: now, expiresAt } });
      },
    );
    return { invitation: { id, email, role, createdAt: now, expiresAt, invitedBy }, token, url: invitationUrl(token) };
  });
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { name: true } });
  const mail = await sendInvitationMail({
    to: email,
    url: created.url,
    tenantName: tenant.name,
    role,
    expiresAt: created.invitation.expiresAt,
  });
  return { ...created, mail };
}
