import type { ApiRoute } from '../api/define-route';
import { allowedMethods, type HttpMethod } from '../api/http-methods';
import type { RouteGroup } from '../api/match-route';
import { API_ROUTES, matchApiRoute } from '../api/routes';
import { metricsHandler } from '../api/handlers/metrics';
import { healthHandler } from '../api/handlers/health';

/**
 * What agents call on every tool call, served by the lean server without Next's request
 * pipeline: the routes of the table marked `dataPlane`, with the same handlers Next serves.
 */
export const DATA_PLANE_ROUTES: readonly ApiRoute[] = API_ROUTES.filter((route) => route.dataPlane);

/**
 * Prometheus scrapes every instance, the data-plane-only ones included. Not in the route table
 * (which is /api/v1); Next serves the same handler from app/metrics/route.ts.
 */
const METRICS_ROUTE: ApiRoute = {
  method: 'GET',
  path: '/metrics',
  summary: 'Prometheus metrics',
  handler: metricsHandler,
  dataPlane: true,
};
const OUTSIDE_API_ALLOWED = allowedMethods(['GET']);
/** Load balancers ask every instance, as Prometheus does; Next serves it from app/healthz/route.ts. */
const HEALTH_ROUTE: ApiRoute = { method: 'GET', path: '/healthz', summary: 'Health', handler: healthHandler, dataPlane: true };
const OUTSIDE_API = new Map([
  [METRICS_ROUTE.path, METRICS_ROUTE],
  [HEALTH_ROUTE.path, HEALTH_ROUTE],
]);

/** The methods the data plane serves on a template's path, for the templates it serves at all. */
const SERVED = new Map<RouteGroup<ApiRoute>, HttpMethod[]>();
for (const route of DATA_PLANE_ROUTES) {
  const group = matchApiRoute(route.path)?.group;
  if (group) SERVED.set(group, allowedMethods([...group.routes.values()].filter((r) => r.dataPlane).map((r) => r.method)));
}

export type DataPlaneMatch =
  | { route: ApiRoute; params: Record<string, string> }
  /** The path is served here, but not with this method. */
  | { allowed: HttpMethod[] }
  | null;

/**
 * The route for a method and path; HEAD is served as GET (Node sends no body for it). The path
 * is matched against the whole table, so a template the data plane does not serve is never
 * taken for one it does.
 */
export function matchDataPlaneRoute(method: string, pathname: string): DataPlaneMatch {
  const outside = OUTSIDE_API.get(pathname);
  if (outside) return method === 'GET' || method === 'HEAD' ? { route: outside, params: {} } : { allowed: OUTSIDE_API_ALLOWED };
  const matched = matchApiRoute(pathname);
  const allowed = matched && SERVED.get(matched.group);
  if (!matched || !allowed) return null;
  const route = matched.group.routes.get(method === 'HEAD' ? 'GET' : method);
  return route?.dataPlane ? { route, params: matched.params } : { allowed };
}
