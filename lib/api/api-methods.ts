import { ENDPOINTS } from './openapi';
import { allowedMethods, type DeclaredMethod, type HttpMethod } from './mount-route';

/** Routes under /api that the OpenAPI document does not list: itself, and Better Auth's. */
const OTHER_ROUTES: { method: string; path: string }[] = [
  { method: 'get', path: '/api/v1/openapi.json' },
  { method: 'get', path: '/api/auth/{...all}' },
  { method: 'post', path: '/api/auth/{...all}' },
];

interface RouteMethods {
  pattern: RegExp;
  /** Dynamic segments: where several templates match a path, Next serves the one with fewest. */
  params: number;
  allowed: HttpMethod[];
}

const ROUTES: RouteMethods[] = (() => {
  const declared = new Map<string, DeclaredMethod[]>();
  for (const { method, path } of [...ENDPOINTS, ...OTHER_ROUTES]) {
    declared.set(path, [...(declared.get(path) ?? []), method.toUpperCase() as DeclaredMethod]);
  }
  return [...declared].map(([path, methods]) => ({
    pattern: new RegExp(
      `^${path
        .split('/')
        .map((segment) => (segment === '{...all}' ? '.+' : /^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}$`,
    ),
    params: (path.match(/\{/g) ?? []).length,
    allowed: allowedMethods(methods),
  }));
})();

/**
 * The methods the API route serving `pathname` allows (as its `Allow` header names them), or
 * null when no API route serves it. For answering a method Next cannot take at all (TRACE, and
 * anything outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS) before it reaches Next.
 */
export function apiAllowedMethods(pathname: string): HttpMethod[] | null {
  let best: RouteMethods | null = null;
  for (const route of ROUTES) {
    if (route.pattern.test(pathname) && (!best || route.params < best.params)) best = route;
  }
  return best?.allowed ?? null;
}
