import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { API_ROUTES } from './routes';
import { templateParams } from './match-route';
import { routeFileContent, routeFileOf } from './route-files';
import * as catchAll from '@/app/api/v1/[...path]/route';

const apiRoot = path.join(import.meta.dirname, '..', '..', 'app', 'api', 'v1');

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : [];
  });
}

type Operation = {
  parameters?: { name: string; in: string; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; additionalProperties?: unknown } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const doc = openApiDocument(API_ROUTES) as { paths: Record<string, Record<string, Operation>> };

/** A path the template matches: each `{name}` stands for a sample value. */
const concrete = (template: string) => template.replace(/\{\w+\}/g, 'x1');

describe('OpenAPI document', () => {
  it('is generated from the route table, which is what Next serves under /api/v1: a route file generated per template (npm run routes), and a catch-all for the rest', async () => {
    const templates = [...new Set(API_ROUTES.map((r) => r.path))];
    const repo = path.join(apiRoot, '..', '..', '..');
    expect(
      routeFiles(apiRoot)
        .map((file) => path.relative(repo, file))
        .sort(),
    ).toEqual([path.join('app', 'api', 'v1', '[...path]', 'route.ts'), ...templates.map(routeFileOf)].sort());
    for (const template of templates)
      expect(readFileSync(path.join(repo, routeFileOf(template)), 'utf8'), template).toBe(routeFileContent(template));
    expect(readFileSync(path.join(apiRoot, '[...path]', 'route.ts'), 'utf8')).toContain('mountRouteTable(matchApiRoute)');
    const operations = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m} ${p}`));
    expect(operations.sort()).toEqual(API_ROUTES.map((r) => `${r.method.toLowerCase()} ${r.path}`).sort());
    for (const template of new Set(API_ROUTES.map((r) => r.path))) {
      const options = await catchAll.OPTIONS(new Request(`http://localhost${concrete(template)}`, { method: 'OPTIONS' }));
      const declared = API_ROUTES.filter((r) => r.path === template).map((r) => r.method);
      expect(options.status, template).toBe(204);
      expect(
        options.headers
          .get('allow')
          ?.split(', ')
          .filter((m) => !['HEAD', 'OPTIONS'].includes(m))
          .sort(),
        template,
      ).toEqual(declared.sort());
    }
  });

  it('describes request bodies from the handlers own Zod schemas', () => {
    const pre = doc.paths['/api/v1/validate/pre']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(pre?.properties ?? {})).toEqual(
      expect.arrayContaining(['tool', 'call_id', 'arguments', 'context', 'approval_token']),
    );
    expect(pre?.additionalProperties).toBe(false);
  });

  it('gives every operation a 200 answer with a schema', () => {
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const content = operation.responses['200']?.content ?? {};
        expect(Object.keys(content), `${method} ${p}`).toContain('application/json');
        for (const [mediaType, { schema }] of Object.entries(content))
          expect(Object.keys(schema).length, `${method} ${p} ${mediaType}`).toBeGreaterThan(0);
      }
    }
  });

  it('describes the CSV download of violations as text/csv', () => {
    const content = doc.paths['/api/v1/violations']?.get?.responses['200']?.content ?? {};
    expect(content['text/csv']?.schema).toMatchObject({ type: 'string' });
  });

  it('declares every path parameter with its schema, and the handlers parse exactly the template parameters', () => {
    for (const route of API_ROUTES) {
      const names = templateParams(route.path);
      expect(Object.keys(route.handler.spec.params?.shape ?? {}).sort(), `${route.method} ${route.path}`).toEqual([...names].sort());
      const declared = doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters?.filter((p) => p.in === 'path') ?? [];
      expect(
        declared.map((p) => p.name),
        route.path,
      ).toEqual(names);
      for (const param of declared) expect(param.schema, `${route.path} ${param.name}`).toMatchObject({ type: 'string' });
    }
  });

  it('names approval ids, contract ids and versions by the patterns they must match', () => {
    const params = (p: string, method: string) =>
      Object.fromEntries((doc.paths[p]?.[method]?.parameters ?? []).map((x) => [x.name, x.schema]));
    expect(params('/api/v1/approvals/{id}', 'get').id).toMatchObject({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
    expect(params('/api/v1/contracts/{id}/versions/{version}', 'get')).toMatchObject({
      id: { maxLength: 128, pattern: expect.any(String) },
      version: { maxLength: 64, pattern: expect.any(String) },
    });
    expect(params('/api/v1/traces/{traceId}', 'get').traceId).toMatchObject({ pattern: '^[0-9a-fA-F]{32}$' });
  });
});
