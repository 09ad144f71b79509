import { db } from '../db';
import { pendingInvitationWhere } from './invitation-state';

export interface MemberSummary {
  /** The membership's id (what PATCH/DELETE /api/v1/members/{id} take). */
  id: string;
  userId: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}

export interface InvitationSummary {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
  /** `user:<id>`, `api_key:<id>` or `system`. */
  invitedBy: string;
}

export function toMemberSummary(row: {
  id: string;
  userId: string;
  role: string;
  createdAt: Date;
  user: { email: string; name: string };
}): MemberSummary {
  return { id: row.id, userId: row.userId, email: row.user.email, name: row.user.name, role: row.role, createdAt: row.createdAt };
}

/** The tenant's members (oldest first) and its invitations that can still be accepted (newest first). */
export async function listMembers(options: { tenantId: string }): Promise<{ members: MemberSummary[]; invitations: InvitationSummary[] }> {
  const [members, invitations] = await Promise.all([
    db().membership.findMany({
      where: { tenantId: options.tenantId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { user: { select: { email: true, name: true } } },
    }),
    db().invitation.findMany({
      where: { tenantId: options.tenantId, ...pendingInvitationWhere(new Date()) },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }),
  ]);
  return {
    members: members.map(toMemberSummary),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      createdAt: i.createdAt,
      expiresAt: i.expiresAt,
      invitedBy: i.invitedBy,
    })),
  };
}
