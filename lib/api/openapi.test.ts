import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, openApiDocument } from './openapi';

const apiRoot = path.join(import.meta.dirname, '..', '..', 'app', 'api', 'v1');

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : [];
  });
}

describe('OpenAPI document', () => {
  it('lists exactly the methods mounted under app/api/v1', () => {
    const mounted = routeFiles(apiRoot)
      .flatMap((file) => {
        const urlPath = `/api/v1/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join('/')}`.replace(/\[(\w+)\]/g, '{$1}');
        // `mountRoute({ GET: handler })` (lib/api/mount-route.ts), or a plain `export { handler as GET }`.
        return [...readFileSync(file, 'utf8').matchAll(/\bas (GET|POST|PUT|PATCH|DELETE)\b|\b(GET|POST|PUT|PATCH|DELETE):/g)].map((m) => `${((m[1] ?? m[2]) as string).toLowerCase()} ${urlPath}`);
      })
      .filter((entry) => entry !== 'get /api/v1/openapi.json')
      .sort();
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort()).toEqual(mounted);
  });

  it('describes request bodies from the handlers own Zod schemas', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; additionalProperties?: unknown } }> } }>> };
    const pre = doc.paths['/api/v1/validate/pre']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(pre?.properties ?? {})).toEqual(expect.arrayContaining(['tool', 'call_id', 'arguments', 'context', 'approval_token']));
    expect(pre?.additionalProperties).toBe(false);
  });
});
