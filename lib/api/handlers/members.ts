import { z } from 'zod';
import { defineRoute, type Caller } from '../define-route';
import { rowIdParam } from '../path-params';
import { ROLES } from '../../tenants/roles';
import type { AdminActor } from '../../evidence/record-admin-evidence';
import { memberEmailSchema } from '../../members/member-email';
import { inviteMember } from '../../members/invite-member';
import { listMembers, type InvitationSummary, type MemberSummary } from '../../members/list-members';
import { changeMemberRole } from '../../members/change-member-role';
import { removeMember } from '../../members/remove-member';
import { revokeInvitation } from '../../members/revoke-invitation';
import { acceptInvitationWithPassword, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../members/accept-invitation';
import { listMemberTenants, switchTenant } from '../../auth/session';
import { db } from '../../db';

const manage = { apiKey: 'admin', session: 'manage_members' } as const;
const Role = z.enum(ROLES);
const MemberParams = z.object({ id: rowIdParam('Member') });

const MemberSchema = z
  .object({ id: z.string(), user_id: z.string(), email: z.string(), name: z.string(), role: z.string(), created_at: z.string() })
  .strict();
const InvitationSchema = z
  .object({ id: z.string(), email: z.string(), role: z.string(), created_at: z.string(), expires_at: z.string(), invited_by: z.string() })
  .strict();
const TenantSchema = z.object({ id: z.string(), slug: z.string(), name: z.string(), role: Role }).strict();

function actorOf(caller: Caller): AdminActor {
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
  handler: async ({ caller, body, requestId }) => {
    const invited = await inviteMember({
      tenantId: caller.tenantId,
      email: body.email,
      role: body.role,
      actor: actorOf(caller),
      requestId,
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
  handler: async ({ caller, body, params, requestId }) => ({
    body: {
      member: memberJson(
        await changeMemberRole({ tenantId: caller.tenantId, membershipId: params.id, role: body.role, actor: actorOf(caller), requestId }),
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
  handler: async ({ caller, params, requestId }) => {
    const removed = await removeMember({ tenantId: caller.tenantId, membershipId: params.id, actor: actorOf(caller), requestId });
    return {
      body: { id: removed.id, user_id: removed.userId, email: removed.email, removed: true, sessions_ended: removed.sessionsEnded },
    };
  },
});

/** DELETE /api/v1/invitations/{id} — withdraw a pending invitation. */
export const revokeInvitationHandler = defineRoute({
  auth: manage,
  params: z.object({ id: rowIdParam('Invitation') }),
  response: z.object({ id: z.string(), email: z.string(), revoked: z.literal(true) }).strict(),
  handler: async ({ caller, params, requestId }) => {
    const revoked = await revokeInvitation({ tenantId: caller.tenantId, id: params.id, actor: actorOf(caller), requestId });
    return { body: { id: revoked.id, email: revoked.email, revoked: true } };
  },
});

/**
 * POST /api/v1/invitations/accept — a person without an account accepts by setting a password.
 * No auth: the link's token is the credential. Someone with an account signs in and accepts on
 * the invitation page instead (409 here).
 */
export const acceptInvitationHandler = defineRoute({
  auth: 'none',
  body: z
    .object({
      token: z.string().min(1).max(200),
      password: z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH),
      name: z.string().trim().min(1).max(MAX_NAME_LENGTH).optional(),
    })
    .strict(),
  response: z
    .object({ email: z.string(), role: Role, tenant: z.object({ id: z.string(), slug: z.string(), name: z.string() }).strict() })
    .strict(),
  handler: async ({ body, requestId }) => {
    const accepted = await acceptInvitationWithPassword({ token: body.token, password: body.password, name: body.name, requestId });
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: accepted.tenantId }, select: { id: true, slug: true, name: true } });
    return { status: 201, body: { email: accepted.email, role: accepted.role, tenant } };
  },
});

/** GET /api/v1/session/tenants — the tenants the signed-in person belongs to, and which one they act in. */
export const listSessionTenantsHandler = defineRoute({
  auth: { session: 'read' },
  response: z.object({ current: z.string(), tenants: z.array(TenantSchema) }).strict(),
  handler: async ({ caller }) => {
    const userId = caller.kind === 'session' ? caller.userId : '';
    const tenants = await listMemberTenants(userId);
    return { body: { current: tenants.find((t) => t.id === caller.tenantId)?.slug ?? '', tenants } };
  },
});

/** POST /api/v1/session/tenant — act in another of one's tenants from the next request on. */
export const switchSessionTenantHandler = defineRoute({
  auth: { session: 'read' },
  body: z.object({ tenant: z.string().min(1).max(100) }).strict(),
  response: z.object({ tenant: TenantSchema }).strict(),
  handler: async ({ caller, body }) => {
    const userId = caller.kind === 'session' ? caller.userId : '';
    const switched = await switchTenant({ userId, slug: body.tenant });
    return { body: { tenant: switched.tenant }, headers: { 'set-cookie': switched.setCookie } };
  },
});
