import { allowedMethods, type DeclaredMethod, type HttpMethod } from './http-methods';

/** What the matcher needs of a route: its method and its path template, e.g. `/api/v1/approvals/{id}`. */
export interface MatchableRoute {
  method: DeclaredMethod;
  path: string;
}

/** The routes of one path template, by method. */
export interface RouteGroup<R extends MatchableRoute> {
  path: string;
  routes: ReadonlyMap<string, R>;
  /** The methods this path allows, as its `Allow` header names them. */
  allowed: HttpMethod[];
}

export interface RouteMatch<R extends MatchableRoute> {
  group: RouteGroup<R>;
  /** Path parameters by name, percent-decoded as Next decodes them. */
  params: Record<string, string>;
}

interface Node<R extends MatchableRoute> {
  statics: Map<string, Node<R>>;
  param: Node<R> | undefined;
  group: (RouteGroup<R> & { names: string[] }) | undefined;
}

const newNode = <R extends MatchableRoute>(): Node<R> => ({ statics: new Map(), param: undefined, group: undefined });

/**
 * The lookup from a pathname to the routes of its template, for Next's catch-all route and the
 * data plane alike. A tree of segments, tried static first: where several templates match a
 * path (`/invitations/accept` and `/invitations/{id}`), the one with a static segment where the
 * other has a parameter wins, as Next orders its routes. One lookup or one walk per request,
 * whatever the size of the table.
 */
export function createRouteMatcher<R extends MatchableRoute>(routes: readonly R[]): (pathname: string) => RouteMatch<R> | null {
  const root = newNode<R>();
  // Templates without parameters, by path: a path one of them matches exactly is theirs (a static
  // segment wins everywhere), found with one lookup. Most data-plane calls are such paths.
  const exact = new Map<string, RouteMatch<R>>();
  for (const route of routes) {
    let node = root;
    const names: string[] = [];
    for (const segment of templateSegments(route.path)) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param) {
        names.push(param);
        node = node.param ??= newNode();
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    const group = (node.group ??= { path: route.path, names, routes: new Map(), allowed: [] });
    if (group.path !== route.path) throw new Error(`${route.path} and ${group.path} name their parameters differently`);
    if (group.routes.has(route.method)) throw new Error(`${route.method} ${route.path} is declared twice`);
    (group.routes as Map<string, R>).set(route.method, route);
    group.allowed = allowedMethods([...group.routes.keys()]);
    if (names.length === 0) exact.set(route.path, Object.freeze({ group, params: Object.freeze({}) }));
  }
  return (pathname) => {
    const fixed = exact.get(pathname);
    if (fixed) return fixed;
    if (pathname.charCodeAt(0) !== 47 /* / */) return null;
    const segments = pathname.slice(1).split('/');
    const values: string[] = [];
    const group = walk(root, segments, 0, values);
    if (!group) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < values.length; i++) {
      const value = decodePercent(values[i] as string);
      if (value === null) return null;
      params[group.names[i] as string] = value;
    }
    return { group, params };
  };
}

function templateSegments(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`route template ${path} does not start with /`);
  return path.slice(1).split('/');
}

function walk<R extends MatchableRoute>(node: Node<R>, segments: string[], at: number, values: string[]): Node<R>['group'] {
  if (at === segments.length) return node.group;
  const segment = segments[at] as string;
  if (segment === '') return undefined;
  const exact = node.statics.get(segment);
  const found = exact && walk(exact, segments, at + 1, values);
  if (found) return found;
  if (!node.param) return undefined;
  values.push(segment);
  const viaParam = walk(node.param, segments, at + 1, values);
  if (!viaParam) values.pop();
  return viaParam;
}

/** A path or segment with its percent-escapes decoded; null when they are not valid UTF-8. */
export function decodePercent(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** The parameter names of a template, in order. */
export function templateParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}
