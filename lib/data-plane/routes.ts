import type { RouteHandler } from '../api/define-route';
import { allowedMethods, type HttpMethod } from '../api/mount-route';
import { validatePostHandler, validatePreHandler } from '../api/handlers/validate';
import { getApprovalHandler } from '../api/handlers/approvals';
import { createConfirmationHandler } from '../api/handlers/confirmations';
import { validateManifestHandler, validatePipelineHandler } from '../api/handlers/pipeline';

export interface DataPlaneRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: RouteHandler;
}

/**
 * What agents call on every tool call, served by the lean server without Next's request
 * pipeline. The handlers are the same functions the Next route files mount.
 */
export const DATA_PLANE_ROUTES: DataPlaneRoute[] = [
  { method: 'POST', pattern: /^\/api\/v1\/validate\/pre$/, handler: validatePreHandler },
  { method: 'POST', pattern: /^\/api\/v1\/validate\/post$/, handler: validatePostHandler },
  { method: 'POST', pattern: /^\/api\/v1\/confirmations$/, handler: createConfirmationHandler },
  { method: 'GET', pattern: /^\/api\/v1\/approvals\/(?<id>[A-Za-z0-9_-]{1,64})$/, handler: getApprovalHandler },
  { method: 'POST', pattern: /^\/api\/v1\/pipeline\/validate$/, handler: validatePipelineHandler },
  { method: 'POST', pattern: /^\/api\/v1\/manifests\/validate$/, handler: validateManifestHandler },
];

export type DataPlaneMatch =
  | { route: DataPlaneRoute; params: Record<string, string> }
  /** The path is served here, but not with this method. */
  | { allowed: HttpMethod[] }
  | null;

/** The route for a method and path; HEAD is served as GET (Node sends no body for it). */
export function matchDataPlaneRoute(method: string, pathname: string): DataPlaneMatch {
  const wanted = method === 'HEAD' ? 'GET' : method;
  let declared: string[] | undefined;
  for (const route of DATA_PLANE_ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    if (route.method === wanted) return { route, params: { ...match.groups } };
    (declared ??= []).push(route.method);
  }
  return declared ? { allowed: allowedMethods(declared) } : null;
}
