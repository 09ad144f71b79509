import { allowedMethods, type HttpMethod } from './http-methods';
import { matchApiRoute } from './routes';
import { AUTH_BASE_PATH } from '../auth/auth-routes';

/** Better Auth's catch-all (app/api/auth/[...all]/route.ts) mounts GET and POST. */
const BETTER_AUTH_PREFIX = `${AUTH_BASE_PATH}/`;
const BETTER_AUTH_ALLOWED = allowedMethods(['GET', 'POST']);

/**
 * The methods the API route serving `pathname` allows (as its `Allow` header names them), or
 * null when no API route serves it. For answering a method Next cannot take at all (TRACE, and
 * anything outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS) before it reaches Next.
 */
export function apiAllowedMethods(pathname: string): HttpMethod[] | null {
  if (pathname.startsWith(BETTER_AUTH_PREFIX) && pathname.length > BETTER_AUTH_PREFIX.length) return BETTER_AUTH_ALLOWED;
  return matchApiRoute(pathname)?.group.allowed ?? null;
}
