import { z } from 'zod';
import { defineRoute } from '../define-route';
import { rowIdParam } from '../path-params';
import { revokeInvitation } from '../../members/revoke-invitation';
import { displayNameSchema } from '../../members/display-name';
import { acceptInvitationWithPassword, MAX_NAME_LENGTH } from '../../members/accept-invitation';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/password-policy';
import { db } from '../../db';
import { actorOf, manage, Role } from './members';

/** DELETE /api/v1/invitations/{id} — withdraw a pending invitation. */
export const revokeInvitationHandler = defineRoute({
  auth: manage,
  params: z.object({ id: rowIdParam('Invitation') }),
  response: z.object({ id: z.string(), email: z.string(), revoked: z.literal(true) }).strict(),
  handler: async ({ caller, params, requestId, firstRecordId }) => {
    const revoked = await revokeInvitation({ tenantId: caller.tenantId, id: params.id, actor: actorOf(caller), requestId, firstRecordId });
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
      name: displayNameSchema(MAX_NAME_LENGTH).optional(),
    })
    .strict(),
  response: z
    .object({ email: z.string(), role: Role, tenant: z.object({ id: z.string(), slug: z.string(), name: z.string() }).strict() })
    .strict(),
  handler: async ({ body, requestId, firstRecordId }) => {
    const accepted = await acceptInvitationWithPassword({
      token: body.token,
      password: body.password,
      name: body.name,
      requestId,
      firstRecordId,
    });
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: accepted.tenantId }, select: { id: true, slug: true, name: true } });
    return { status: 201, body: { email: accepted.email, role: accepted.role, tenant } };
  },
});
