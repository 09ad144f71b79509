'use server';

import { revalidatePath } from 'next/cache';
import { AppError } from '@/lib/errors';
import type { SessionMember } from '@/lib/auth/session';
import type { AdminActor } from '@/lib/evidence/record-admin-evidence';
import { inviteMember } from '@/lib/members/invite-member';
import { changeMemberRole } from '@/lib/members/change-member-role';
import { removeMember } from '@/lib/members/remove-member';
import { revokeInvitation } from '@/lib/members/revoke-invitation';
import { isRole } from '@/lib/tenants/roles';
import { authorizeAction } from '../authorize-action';

export type InviteState =
  | { status: 'idle' }
  | { status: 'error'; message: string }
  // The only place the invitation link ever leaves the server; it lives in this response alone.
  | { status: 'invited'; email: string; role: string; url: string; emailSent: boolean; emailProblem: 'not_configured' | 'failed' | null };

export type MemberActionState = { status: 'idle' } | { status: 'error'; message: string } | { status: 'done'; message: string };

// The lib functions check again, under the tenant's lock, that the person is still an admin.
async function authorize(form: FormData): Promise<{ member: SessionMember; actor: AdminActor } | { message: string }> {
  const auth = await authorizeAction(form, 'manage_members', (role) => `Only admins can manage members; your role is ${role}.`);
  return 'message' in auth ? auth : { member: auth.member, actor: { kind: 'user', userId: auth.member.user.id } };
}

const field = (form: FormData, name: string) =>
  String(form.get(name) ?? '')
    .trim()
    .slice(0, 1000);

/** What a refused change tells the admin; anything unexpected is rethrown (a 500 page, logged). */
function refusal(error: unknown): { status: 'error'; message: string } {
  if (error instanceof AppError) return { status: 'error', message: error.message };
  throw error;
}

export async function inviteMemberAction(_previous: InviteState, form: FormData): Promise<InviteState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  const role = field(form, 'role');
  if (!isRole(role)) return { status: 'error', message: 'Choose a role: viewer, author, approver or admin.' };
  try {
    const invited = await inviteMember({ tenantId: auth.member.tenant.id, email: field(form, 'email'), role, actor: auth.actor });
    revalidatePath('/members');
    return {
      status: 'invited',
      email: invited.invitation.email,
      role,
      url: invited.url,
      emailSent: invited.mail.sent,
      emailProblem: invited.mail.sent ? null : invited.mail.reason,
    };
  } catch (error) {
    return refusal(error);
  }
}

export async function changeRoleAction(_previous: MemberActionState, form: FormData): Promise<MemberActionState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  const role = field(form, 'role');
  if (!isRole(role)) return { status: 'error', message: 'Choose a role: viewer, author, approver or admin.' };
  try {
    const member = await changeMemberRole({ tenantId: auth.member.tenant.id, membershipId: field(form, 'id'), role, actor: auth.actor });
    revalidatePath('/members');
    return { status: 'done', message: `${member.email} is now ${member.role}.` };
  } catch (error) {
    return refusal(error);
  }
}

export async function removeMemberAction(_previous: MemberActionState, form: FormData): Promise<MemberActionState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    const removed = await removeMember({ tenantId: auth.member.tenant.id, membershipId: field(form, 'id'), actor: auth.actor });
    revalidatePath('/members');
    return { status: 'done', message: `${removed.email} was removed.` };
  } catch (error) {
    return refusal(error);
  }
}

export async function revokeInvitationAction(_previous: MemberActionState, form: FormData): Promise<MemberActionState> {
  const auth = await authorize(form);
  if ('message' in auth) return { status: 'error', message: auth.message };
  try {
    const revoked = await revokeInvitation({ tenantId: auth.member.tenant.id, id: field(form, 'id'), actor: auth.actor });
    revalidatePath('/members');
    return { status: 'done', message: `The invitation for ${revoked.email} was revoked.` };
  } catch (error) {
    return refusal(error);
  }
}
