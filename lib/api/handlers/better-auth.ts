import { getAuth } from '../../auth/auth';
import { servesAuthRoute } from '../../auth/auth-routes';
import { crossSiteRefusal, failureResponse, toResponse } from '../define-route';
import { pathNotFound } from '../mount-route';

/**
 * Everything under /api/auth (sign-in, sign-out, session, SSO) is Better Auth's. Unsafe requests
 * pass the same-origin rule first; Better Auth's own trustedOrigins check still runs after it. A
 * path Better Auth does not serve is answered here, before its rate limit writes a row for it.
 */
export async function betterAuthHandler(request: Request): Promise<Response> {
  const refused = crossSiteRefusal(request);
  if (refused) return refused;
  try {
    const auth = await getAuth();
    const pathname = new URL(request.url).pathname;
    if (!servesAuthRoute(auth.api, request.method, pathname))
      return toResponse(pathNotFound(pathname, request.headers.get('x-request-id')));
    return await auth.handler(request);
  } catch (error) {
    // Better Auth lets a failed write through (a full disk, a database gone): answered as the
    // API answers it, 503 with Retry-After, not Next's 500 page.
    return failureResponse(request, error);
  }
}
