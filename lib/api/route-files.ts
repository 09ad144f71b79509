import path from 'node:path';

/**
 * The Next route files generated from the route table (`npm run routes`, scripts/routes.ts).
 * One static file per path template rather than a catch-all for everything: Next serves a
 * static route about 70 us of CPU per request cheaper than its catch-all (bench/validate, the
 * Next row: 1,056 against 1,097-1,176), so the catch-all only answers paths no template
 * matches (the 404 envelope). Each file only mounts its template's routes from the table.
 */
export const GENERATED_ROUTE_HEADER = '// Generated from the route table (lib/api/routes.ts) by `npm run routes`; do not edit.';

/** The route file of a template, relative to the repository: `{id}` becomes Next's `[id]`. */
export function routeFileOf(template: string): string {
  const segments = template
    .replace(/^\//, '')
    .split('/')
    .map((segment) => segment.replace(/^\{(\w+)\}$/, '[$1]'));
  return path.posix.join('app', ...segments, 'route.ts');
}

export function routeFileContent(template: string): string {
  return [
    GENERATED_ROUTE_HEADER,
    "import { mountTableRoute } from '@/lib/api/routes';",
    '',
    `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountTableRoute('${template}');`,
    '',
  ].join('\n');
}

/** Every generated route file: its path relative to the repository and its content. */
export function routeFiles(templates: readonly string[]): { file: string; content: string }[] {
  return [...new Set(templates)].sort().map((template) => ({ file: routeFileOf(template), content: routeFileContent(template) }));
}
