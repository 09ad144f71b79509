import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedMethods, HTTP_METHODS } from './http-methods';
import { createRouteMatcher } from './match-route';
import { methodNotAllowed, mountRoute, mountRouteTable } from './mount-route';
import { API_ROUTES } from './routes';
import { routeFileOf } from './route-files';

const apiRoot = path.join(import.meta.dirname, '..', '..', 'app', 'api');

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === 'route.ts' ? [full] : [];
  });
}

function request(method: string, url = 'http://localhost/api/v1/thing', headers: Record<string, string> = {}) {
  return new Request(url, { method, headers });
}

describe('mountRoute', () => {
  const get = async (req: Request) => Response.json({ method: req.method }, { headers: { 'x-kind': 'list' } });
  const post = async () => Response.json({ created: true }, { status: 201 });
  const route = mountRoute({ GET: get, POST: post });

  it('passes declared methods to their handlers', async () => {
    expect(await (await route.GET(request('GET'))).json()).toEqual({ method: 'GET' });
    expect((await route.POST(request('POST'))).status).toBe(201);
  });

  it('answers HEAD as GET without the body', async () => {
    const head = await route.HEAD(request('HEAD'));
    expect(head.status).toBe(200);
    expect(head.headers.get('x-kind')).toBe('list');
    expect(await head.text()).toBe('');
  });

  it('answers OPTIONS with what is allowed and no CORS grant', async () => {
    const options = await route.OPTIONS(request('OPTIONS'));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers other methods with the method_not_allowed envelope and an Allow header', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await route[method](request(method, 'http://localhost/api/v1/thing?x=1', { 'x-request-id': 'req-405' }));
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-request-id')).toBe('req-405');
      expect(await res.json()).toEqual({
        error: {
          code: 'method_not_allowed',
          message: `${method} is not allowed on /api/v1/thing; use GET, HEAD, POST, OPTIONS.`,
          details: { allowed_methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] },
        },
        request_id: 'req-405',
      });
    }
  });

  it('refuses HEAD where there is no GET', async () => {
    const postOnly = mountRoute({ POST: post });
    const head = await postOnly.HEAD(request('HEAD'));
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('orders Allow the same way whatever order the handlers are given in', () => {
    expect(allowedMethods(['DELETE', 'PATCH'])).toEqual(['PATCH', 'DELETE', 'OPTIONS']);
    expect(allowedMethods(['POST', 'GET'])).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
  });

  it('makes a request id when the given one is unusable, and bounds what it echoes', () => {
    const result = methodNotAllowed('X'.repeat(100), `/${'p'.repeat(500)}`, ['GET'], 'bad id with spaces');
    if ('response' in result) throw new Error('expected a JSON result');
    const body = JSON.parse(result.text);
    expect(body.request_id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(body.error.message.length).toBeLessThan(260);
  });
});

describe('mountRouteTable', () => {
  const echo = (label: string) => async (req: Request, context?: { params?: unknown }) =>
    Response.json({ label, method: req.method, params: await context?.params });
  const table = mountRouteTable(
    createRouteMatcher([
      { method: 'GET', path: '/api/v1/things/{id}', handler: echo('get thing') },
      { method: 'DELETE', path: '/api/v1/things/{id}', handler: echo('delete thing') },
      { method: 'POST', path: '/api/v1/things/import', handler: echo('import') },
    ] as const),
  );

  it('passes each request to the route of its template, with the params decoded', async () => {
    expect(await (await table.GET(request('GET', 'http://localhost/api/v1/things/a%20b'))).json()).toEqual({
      label: 'get thing',
      method: 'GET',
      params: { id: 'a b' },
    });
    expect(await (await table.DELETE(request('DELETE', 'http://localhost/api/v1/things/t1'))).json()).toMatchObject({
      label: 'delete thing',
    });
    expect(await (await table.POST(request('POST', 'http://localhost/api/v1/things/import'))).json()).toMatchObject({
      label: 'import',
      params: {},
    });
  });

  it('answers HEAD, OPTIONS and other methods as mountRoute does, per template', async () => {
    const head = await table.HEAD(request('HEAD', 'http://localhost/api/v1/things/t1'));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await table.OPTIONS(request('OPTIONS', 'http://localhost/api/v1/things/t1'))).headers.get('allow')).toBe(
      'GET, HEAD, DELETE, OPTIONS',
    );
    const refused = await table.GET(request('GET', 'http://localhost/api/v1/things/import'));
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers a path no template matches with the 404 envelope', async () => {
    for (const method of HTTP_METHODS) {
      const res = await table[method](request(method, 'http://localhost/api/v1/nothing/here', { 'x-request-id': 'req-404' }));
      expect(res.status, method).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({
        error: { code: 'not_found', message: 'Nothing is served at /api/v1/nothing/here.' },
        request_id: 'req-404',
      });
    }
  });
});

// Walks every path the API serves (the route table and Better Auth's), so routes added later
// are held to the same answer.
describe('every route under app/api', () => {
  const files = routeFiles(apiRoot).sort();
  const catchAll = path.join(apiRoot, 'v1', '[...path]', 'route.ts');
  const betterAuth = path.join(apiRoot, 'auth', '[...all]', 'route.ts');
  const templates = [...new Set(API_ROUTES.map((route) => route.path))];
  const generated = templates.map((template) => path.join(apiRoot, '..', '..', routeFileOf(template)));
  const paths = templates.map((template, i) => ({ urlPath: template.replace(/\{\w+\}/g, 'x1'), file: generated[i] as string }));
  paths.push({ urlPath: '/api/auth/sign-in/email', file: betterAuth });

  it('finds the route files and the paths they serve', () => {
    expect(files).toEqual([betterAuth, catchAll, ...generated].sort());
    expect(paths.length).toBeGreaterThan(30);
  });

  it('exports every method through mountRoute', async () => {
    const unconverted: string[] = [];
    for (const file of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      if (!HTTP_METHODS.every((method) => typeof mod[method] === 'function')) unconverted.push(path.relative(apiRoot, file));
    }
    expect(unconverted).toEqual([]);
  });

  it('answers methods it does not serve with 405, Allow and the envelope', async () => {
    for (const { urlPath, file } of paths) {
      const mod = (await import(file)) as Record<string, ((request: Request, context: unknown) => Promise<Response>) | undefined>;
      // An unconverted file is reported by the test above.
      if (typeof mod.OPTIONS !== 'function') continue;
      const url = `http://localhost${urlPath}`;
      const context = { params: Promise.resolve({}) };
      const options = await mod.OPTIONS(request('OPTIONS', url), context);
      expect(options.status, urlPath).toBe(204);
      const allow = options.headers.get('allow') ?? '';
      const allowed = allow.split(', ');
      expect(allowed, urlPath).toContain('OPTIONS');
      expect(allowed.length, urlPath).toBeGreaterThan(1);
      expect(allowed.includes('HEAD'), urlPath).toBe(allowed.includes('GET'));
      for (const method of HTTP_METHODS.filter((m) => !allowed.includes(m))) {
        const res = await mod[method]!(request(method, url), context);
        expect(res.status, `${method} ${urlPath}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${urlPath}`).toBe(allow);
        const body = await res.json();
        expect(body.error.code, `${method} ${urlPath}`).toBe('method_not_allowed');
        expect(body.error.details.allowed_methods).toEqual(allowed);
        expect(body.request_id).toEqual(expect.any(String));
      }
    }
  });
});
