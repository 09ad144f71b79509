import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { HTTP_METHODS } from '@/lib/api/mount-route';
import { API_SECURITY_HEADERS } from '@/lib/http/security-headers';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createDataPlaneServer } from './server';
import { DATA_PLANE_ROUTES } from './routes';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let server: http.Server;
let base = '';

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  server = createDataPlaneServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** One concrete path per data-plane route, and the route file Next mounts for it. */
const PATHS = DATA_PLANE_ROUTES.map((route) => {
  const urlPath = route.pattern.source.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\//g, '/').replace(/\(\?<id>[^)]*\)/, 'apr_123');
  const routeFile = path.join(import.meta.dirname, '..', '..', 'app', urlPath.replace('apr_123', '[id]'), 'route.ts');
  return { urlPath, routeFile, method: route.method };
});

function expectSecurityHeaders(res: Response, label: string) {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers.get(name), `${label}: ${name}`).toBe(value);
}

describe('the data-plane server (runtime endpoints only)', () => {
  it('answers other methods on its paths with 405, the same Allow as the Next route file, and the envelope', async () => {
    expect(PATHS.length).toBe(DATA_PLANE_ROUTES.length);
    for (const { urlPath, routeFile, method: served } of PATHS) {
      const nextRoute = (await import(routeFile)) as Record<string, (request: Request) => Promise<Response>>;
      const nextAllow = (await nextRoute.OPTIONS!(new Request(`http://localhost${urlPath}`, { method: 'OPTIONS' }))).headers.get('allow');
      const options = await fetch(`${base}${urlPath}`, { method: 'OPTIONS' });
      expect(options.status, urlPath).toBe(204);
      expect(options.headers.get('allow'), urlPath).toBe(nextAllow);
      for (const method of HTTP_METHODS.filter((m) => m !== 'OPTIONS' && m !== served && !(m === 'HEAD' && served === 'GET'))) {
        const res = await fetch(`${base}${urlPath}`, { method, headers: { 'x-request-id': 'dp-405' } });
        const label = `${method} ${urlPath}`;
        expect(res.status, label).toBe(405);
        expect(res.headers.get('allow'), label).toBe(nextAllow);
        expectSecurityHeaders(res, label);
        if (method === 'HEAD') continue;
        expect(await res.json(), label).toEqual({
          error: { code: 'method_not_allowed', message: `${method} is not allowed on ${urlPath}; use ${nextAllow}.`, details: { allowed_methods: nextAllow?.split(', ') } },
          request_id: 'dp-405',
        });
      }
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const head = await fetch(`${base}/api/v1/approvals/apr_missing`, { method: 'HEAD', headers: { authorization: `Bearer ${t.agentKey}` } });
    const get = await fetch(`${base}/api/v1/approvals/apr_missing`, { headers: { authorization: `Bearer ${t.agentKey}` } });
    expect(get.status).toBe(404);
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });

  it('puts the security headers on its answers: allow, errors and unknown paths', async () => {
    const allowed = await fetch(`${base}/api/v1/validate/pre`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'orders.lookup', call_id: 'dp-h1', arguments: { tenant_id: 'acme', order_id: 'ord_abc123' }, context: { tenant_id: 'acme' } }),
    });
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).decision).toBe('allow');
    expectSecurityHeaders(allowed, 'allow');
    const unauthorized = await fetch(`${base}/api/v1/validate/pre`, { method: 'POST', body: '{}' });
    expect(unauthorized.status).toBe(401);
    expectSecurityHeaders(unauthorized, '401');
    const unknown = await fetch(`${base}/api/v1/contracts`);
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown, '404');
  });
});
