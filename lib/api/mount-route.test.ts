import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedMethods, HTTP_METHODS, methodNotAllowed, mountRoute } from './mount-route';

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
        error: { code: 'method_not_allowed', message: `${method} is not allowed on /api/v1/thing; use GET, HEAD, POST, OPTIONS.`, details: { allowed_methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] } },
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
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.error.message.length).toBeLessThan(260);
  });
});

// Walks every route file, so routes added later are held to the same answer.
describe('every route under app/api', () => {
  const files = routeFiles(apiRoot).sort();

  it('finds the route files', () => {
    expect(files.length).toBeGreaterThan(30);
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
    for (const file of files) {
      const mod = (await import(file)) as Record<string, ((request: Request, context: unknown) => Promise<Response>) | undefined>;
      // An unconverted file is reported by the test above.
      if (typeof mod.OPTIONS !== 'function') continue;
      const urlPath = `/api/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join('/')}`;
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
