import { getAuth } from '../../auth/auth';
import { crossSiteRefusal } from '../define-route';

/**
 * Everything under /api/auth (sign-in, sign-out, session, SSO) is Better Auth's. Unsafe requests
 * pass the same-origin rule first; Better Auth's own trustedOrigins check still runs after it.
 */
export async function betterAuthHandler(request: Request): Promise<Response> {
  return crossSiteRefusal(request) ?? (await getAuth()).handler(request);
}
