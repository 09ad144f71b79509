import { db } from '../db';
import { isRole, type Role } from '../tenants/roles';
import { getAuth } from './auth';

export interface SessionMember {
  user: { id: string; email: string; name: string };
  tenant: { id: string; slug: string; name: string };
  role: Role;
}

/**
 * The signed-in user and the tenant they act in (their first membership; a tenant switcher
 * comes with multi-tenant users). Null when there is no valid session or no membership.
 */
export async function getSessionMember(headers: Headers): Promise<SessionMember | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const membership = await db().membership.findFirst({
    where: { userId: session.user.id },
    orderBy: { createdAt: 'asc' },
    include: { tenant: true },
  });
  if (!membership || !isRole(membership.role)) return null;
  return {
    user: { id: session.user.id, email: session.user.email, name: session.user.name },
    tenant: { id: membership.tenant.id, slug: membership.tenant.slug, name: membership.tenant.name },
    role: membership.role,
  };
}
