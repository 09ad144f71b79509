import 'server-only';
import { headers } from 'next/headers';
import { getSessionMember, NotTenantMemberError, type SessionMember } from '@/lib/auth/session';
import { TENANT_FIELD } from '@/lib/auth/page-tenant';
import { can, type Permission, type Role } from '@/lib/tenants/roles';
import { storedTextProblem } from '@/lib/stored-text';
import { rememberActionTenant } from './action-tenant';

/**
 * The first step of every dashboard Server Action. Server Actions are public endpoints: hiding a
 * form is not enough, so every call re-checks the session and the role, with the same
 * permissions as the API. The same-origin rule for them is proxy.ts's.
 *
 * The form names the tenant its page was rendered for (the hidden TENANT_FIELD, components/
 * tenant-field.tsx), and the action acts there and nowhere else: the `toolgate_tenant` cookie
 * may name another tenant by now, switched to in another tab. A form without the field (a page
 * from before it existed, a hand-made request) acts where the cookie says, as before.
 *
 * Not a 'use server' module: exported from one, this would be callable on its own.
 */
export async function authorizeAction(
  form: FormData,
  permission: Permission,
  denied: (role: Role) => string,
): Promise<{ member: SessionMember } | { message: string }> {
  const named = form.get(TENANT_FIELD);
  const requestHeaders = await headers();
  let member: SessionMember | null;
  try {
    // A file where the id belongs is no tenant id: it names no tenant of theirs.
    member = await getSessionMember(requestHeaders, { tenantId: named === null ? null : typeof named === 'string' ? named : '' });
  } catch (error) {
    if (error instanceof NotTenantMemberError) return { message: error.message };
    throw error;
  }
  if (!member) return { message: 'Your session has ended. Sign in again.' };
  // The page rendered again after the action (revalidatePath) shows this tenant too.
  rememberActionTenant(requestHeaders, member.tenant.id);
  if (!can(member.role, permission)) return { message: denied(member.role) };
  const unstorable = unstorableField(form);
  if (unstorable) return { message: `${unstorable}; nothing was changed.` };
  return { member };
}

/**
 * The first form field no text column can hold, as a problem naming it. The actions look rows up
 * by the ids and names their forms carry: one with a NUL failed that lookup on PostgreSQL
 * (22021), which the action rethrew as Next's error page, where SQLite found nothing.
 */
function unstorableField(form: FormData): string | null {
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string') continue;
    const problem = storedTextProblem(`The form's "${name.slice(0, 64)}" field`, value);
    if (problem) return problem;
  }
  return null;
}
