import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { NO_QUERY } from '../no-query';
import { rowIdParam } from '../path-params';
import { ROLES } from '../../tenants/roles';
import type { AdminActor } from '../../evidence/record-admin-evidence';
import { memberEmailSchema } from '../../members/member-email';
import { inviteMember } from '../../members/invite-member';
import { listMembers, type InvitationSummary, type MemberSummary } from '../../members/list-members';
import { changeMemberRole } from '../../members/change-member-role';
import { removeMember } from '../../members/remove-member';

/** Who may manage the tenant's people: admin keys and members with manage_members. */
export const manage = { apiKey: 'admin', session: 'manage_members' } as const;
export const Role = z.enum(ROLES);
const MemberParams = z.object({ id: rowIdParam('Member') });

const MemberSchema = z
  .object({ id: z.string(), user_id: z.string(), email: z.string(), name: z.string(), role: z.string(), created_at: z.string() })
  .strict();
const InvitationSchema = z
  .object({ id: z.string(), email: z.string(), role: z.string(), created_at: z.string(), expires_at: z.string(), invited_by: z.string() })
  .strict();

export function actorOf(caller: Caller): AdminActor {
  return caller.kind === 'session' ? { kind: 'user', userId: caller.userId } : { kind: 'api_key', apiKeyId: caller.apiKeyId };
}

function memberJson(m: MemberSummary) {
  return { id: m.id, user_id: m.userId, email: m.email, name: m.name, role: m.role, created_at: m.createdAt.toISOString() };
}

function invitationJson(i: InvitationSummary) {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
    invited_by: i.invitedBy,
  };
}

/** GET /api/v1/members — the tenant's members and pending invitations. */
export const listMembersHandler = defineRoute({
  auth: manage,
  query: NO_QUERY,
  response: z.object({ members: z.array(MemberSchema), invitations: z.array(InvitationSchema) }).strict(),
  handler: async ({ caller }) => {
    const { members, invitations } = await listMembers({ tenantId: caller.tenantId });
    return { body: { members: members.map(memberJson), invitations: invitations.map(invitationJson) } };
  },
});

/** POST /api/v1/members — invite a person by email; the link is in this answer only. */
export const inviteMemberHandler = defineRoute({
  auth: manage,
  body: z.object({ email: memberEmailSchema, role: Role }).strict(),
  response: z
    .object({
      invitation: InvitationSchema,
      invitation_url: z.string(),
      email_sent: z.boolean(),
      email_not_sent_reason: z.enum(['not_configured', 'failed']).optional(),
    })
    .strict(),
  handler: async ({ caller, body, requestId, firstRecordId }) => {
    const invited = await inviteMember({
      tenantId: caller.tenantId,
      email: body.email,
      role: body.role,
      actor: actorOf(caller),
      requestId,
      firstRecordId,
    });
    return {
      status: 201,
      body: {
        invitation: invitationJson(invited.invitation),
        invitation_url: invited.url,
        email_sent: invited.mail.sent,
        ...(invited.mail.sent ? {} : { email_not_sent_reason: invited.mail.reason }),
      },
    };
  },
});

/** PATCH /api/v1/members/{id} — another role, from the person's next request on. */
export const changeMemberRoleHandler = defineRoute({
  auth: manage,
  body: z.object({ role: Role }).strict(),
  params: MemberParams,
  response: z.object({ member: MemberSchema }).strict(),
  handler: async ({ caller, body, params, requestId, firstRecordId }) => ({
    body: {
      member: memberJson(
        await changeMemberRole({
          tenantId: caller.tenantId,
          membershipId: params.id,
          role: body.role,
          actor: actorOf(caller),
          requestId,
          firstRecordId,
        }),
      ),
    },
  }),
});

/** DELETE /api/v1/members/{id} — remove a person from the tenant. */
export const removeMemberHandler = defineRoute({
  auth: manage,
  params: MemberParams,
  response: z
    .object({ id: z.string(), user_id: z.string(), email: z.string(), removed: z.literal(true), sessions_ended: z.number().int() })
    .strict(),
  handler: async ({ caller, params, requestId, firstRecordId }) => {
    const removed = await removeMember({
      tenantId: caller.tenantId,
      membershipId: params.id,
      actor: actorOf(caller),
      requestId,
      firstRecordId,
    });
    return {
      body: { id: removed.id, user_id: removed.userId, email: removed.email, removed: true, sessions_ended: removed.sessionsEnded },
    };
  },
});
