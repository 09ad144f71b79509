import { addRoute, createRouter, findRoute } from 'rou3';

/** Where Next mounts Better Auth (app/api/auth/[...all]). */
export const AUTH_BASE_PATH = '/api/auth';

interface AuthEndpoint {
  path?: string;
  options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } };
}

/**
 * The Better Auth endpoints Toolgate serves over HTTP: sign-in with a password or the identity
 * provider, its callback, the session, sign-out (of this session, or of a person's others), a
 * person's own password, and Better Auth's error page. Every other endpoint it has (and any a later version adds) is not found:
 * get-access-token and account-info handed the identity provider's access token and profile to
 * any holder of the session cookie, list-sessions every session's token and address,
 * verify-password answered password guesses without the sign-in limit, and update-user let a
 * person set a name of any length and content, which every Members page then shows (invitations
 * allow 100 characters). Toolgate's own code calls Better Auth in process (auth.api).
 */
export const SERVED_AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  '/sign-in/email',
  '/sign-in/social',
  '/callback/:id',
  '/get-session',
  '/sign-out',
  '/change-password',
  '/revoke-other-sessions',
  '/ok',
  '/error',
]);

const routers = new WeakMap<object, ReturnType<typeof createRouter<string>>>();

/**
 * Whether this method and path is one of the served endpoints, decided as Better Auth's router
 * decides (rou3 over the endpoints of `auth.api`, no empty or doubled segment, a trailing slash
 * only where the endpoint has one). Decided before Better Auth sees the request: it counts every
 * request against its rate limit before routing it, a database row per address and path, so a
 * new unserved path per request would be a new row each.
 */
export function servesAuthRoute(api: object, method: string, pathname: string): boolean {
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  const path = pathname.slice(AUTH_BASE_PATH.length);
  if (/\/{2,}/.test(path)) return false;
  let router = routers.get(api);
  if (!router) {
    router = createRouter<string>();
    for (const endpoint of Object.values(api as Record<string, AuthEndpoint>)) {
      if (!endpoint.path || !endpoint.options || endpoint.options.metadata?.SERVER_ONLY) continue;
      if (!SERVED_AUTH_ENDPOINTS.has(endpoint.path)) continue;
      const methods = Array.isArray(endpoint.options.method) ? endpoint.options.method : [endpoint.options.method];
      for (const each of methods) addRoute(router, each as string, endpoint.path, endpoint.path);
    }
    routers.set(api, router);
  }
  const route = findRoute(router, method, path);
  if (!route || path.endsWith('/') !== route.data.endsWith('/')) return false;
  // A parameter (the callback's provider id) is a short token: any string reached Better Auth,
  // whose rate limit keys its row by the path, and a path of a few kB past PostgreSQL's index
  // row limit failed that write, a 503 "cannot reach its database" for any caller who sent one.
  return Object.values(route.params ?? {}).every((value) => PATH_PARAM.test(value));
}

/** What a served path's parameter may be: a provider id such as `sso` or `google`. */
const PATH_PARAM = /^[A-Za-z0-9_-]{1,64}$/;
