import { db } from '../db';
import { env } from '../env';
import { AppError, NotFoundError } from '../errors';
import { isRole, type Role } from '../tenants/roles';
import { getAuth } from './auth';
import { isTenantIdShaped } from './page-tenant';
import { isStorableText } from '../stored-text';

export interface SessionMember {
  user: { id: string; email: string; name: string };
  tenant: { id: string; slug: string; name: string };
  role: Role;
}

/** Names the tenant a person with several acts in (its id); switching tenants sets it. */
export const TENANT_COOKIE = 'toolgate_tenant';

/**
 * A signed-in person named a tenant they are not (or no longer) a member of: the page they act
 * from was rendered for it. Not "no session" (a 401, sign in again): they are signed in, and
 * reloading shows the tenant they act in now. The id is repeated only when it is shaped like one.
 */
export class NotTenantMemberError extends AppError {
  constructor(tenantId: string) {
    super(
      'forbidden',
      'You are not a member of the tenant this page was opened for any more (or it no longer exists); nothing was changed. Reload the page.',
      { reason: 'not_a_member', tenant_id: isTenantIdShaped(tenantId) ? tenantId : null },
    );
    this.name = 'NotTenantMemberError';
  }
}

/**
 * The signed-in user and the tenant they act in. Null when there is no valid session (or, with
 * no tenant named, no membership). Read on every request, so a role change or a removal
 * applies at the person's next request.
 *
 * - With `tenantId` (a dashboard page names the tenant it was rendered for: a form's hidden
 *   field, a fetch's `x-toolgate-tenant` header, lib/auth/page-tenant.ts): exactly that
 *   membership, never another, so a page keeps acting in its tenant after the person switched
 *   tenants in another tab. When they are not a member there (any more), or the value is not a
 *   tenant id at all, this throws NotTenantMemberError (403): the name only ever chooses among
 *   the person's own memberships.
 * - Without: the tenant the `toolgate_tenant` cookie names when they are a member there, else
 *   their first membership.
 */
export async function getSessionMember(headers: Headers, options: { tenantId?: string | null } = {}): Promise<SessionMember | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const userId = session.user.id;
  const named = options.tenantId ?? null;
  let membership;
  if (named !== null) {
    membership = isTenantIdShaped(named)
      ? await db().membership.findUnique({ where: { tenantId_userId: { tenantId: named, userId } }, include: { tenant: true } })
      : null;
    if (!membership || !isRole(membership.role)) throw new NotTenantMemberError(named);
  } else {
    // Only a value shaped like a tenant id: the cookie is the browser's to send, and one holding a
    // NUL failed every signed-in request on PostgreSQL (22021) while SQLite fell back to the first.
    const chosen = readCookie(headers.get('cookie'), TENANT_COOKIE);
    membership =
      (chosen && isTenantIdShaped(chosen)
        ? await db().membership.findUnique({ where: { tenantId_userId: { tenantId: chosen, userId } }, include: { tenant: true } })
        : null) ??
      (await db().membership.findFirst({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { tenant: true } }));
  }
  if (!membership || !isRole(membership.role)) return null;
  return {
    user: { id: userId, email: session.user.email, name: session.user.name },
    tenant: { id: membership.tenant.id, slug: membership.tenant.slug, name: membership.tenant.name },
    role: membership.role,
  };
}

export interface MemberTenant {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

/** Every tenant the person belongs to, in the order the fallback choice uses. */
export async function listMemberTenants(userId: string): Promise<MemberTenant[]> {
  const rows = await db().membership.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { tenant: { select: { id: true, slug: true, name: true } } },
  });
  return rows.flatMap((m) => (isRole(m.role) ? [{ ...m.tenant, role: m.role }] : []));
}

/**
 * The tenant a person switches to, by slug, and the Set-Cookie header value that makes it
 * theirs for the following requests. A tenant they do not belong to is a 404, as if it did not
 * exist.
 */
export async function switchTenant(options: { userId: string; slug: string }): Promise<{ tenant: MemberTenant; setCookie: string }> {
  const membership = isStorableText(options.slug)
    ? await db().membership.findFirst({
        where: { userId: options.userId, tenant: { slug: options.slug } },
        include: { tenant: { select: { id: true, slug: true, name: true } } },
      })
    : null;
  if (!membership || !isRole(membership.role)) throw new NotFoundError('Tenant', options.slug);
  return { tenant: { ...membership.tenant, role: membership.role }, setCookie: tenantCookie(membership.tenant.id) };
}

/** httpOnly: scripts never need it; Lax: a link from elsewhere still opens the chosen tenant. */
export function tenantCookieOptions(): { httpOnly: true; sameSite: 'lax'; path: '/'; maxAge: number; secure: boolean } {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: 400 * 24 * 3600,
    secure: env().TOOLGATE_PUBLIC_URL?.startsWith('https:') ?? false,
  };
}

export function tenantCookie(tenantId: string): string {
  const o = tenantCookieOptions();
  return `${TENANT_COOKIE}=${encodeURIComponent(tenantId)}; Path=${o.path}; HttpOnly; SameSite=Lax; Max-Age=${o.maxAge}${o.secure ? '; Secure' : ''}`;
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    if (raw.length === 0 || raw.length > 200) return null;
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}
