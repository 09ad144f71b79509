import { beforeAll, describe, expect, it } from 'vitest';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { API_ROUTES } from '@/lib/api/routes';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { asSession, signIn } from './member-sessions';

// Every GET route of the table without path parameters, called through Next's catch-all route
// as a key with every scope (or a signed-in admin where keys are not accepted): each answers 200
// with a body its response schema accepts, which defineRoute checks in tests
// (TOOLGATE_VALIDATE_RESPONSES=1), so a schema no other test reaches is still held to a real answer.

let keyHeaders: Record<string, string>;
let sessionHeaders: Record<string, string>;

beforeAll(async () => {
  const t = await createTestTenant();
  await publishContract(t.tenant.id, EXAMPLE_CONTRACTS[0]!);
  const key = await createApiKey({ tenantId: t.tenant.id, name: 'everything', scopes: ['validate', 'author', 'admin'] });
  keyHeaders = { authorization: `Bearer ${key.key}` };
  await addMember({ tenantId: t.tenant.id, email: 'tables@routes.test', password: 'tables-password', role: 'admin' });
  sessionHeaders = asSession((await signIn('tables@routes.test', 'tables-password')).cookie);
});

describe('the route table through the catch-all route', () => {
  const plainGets = API_ROUTES.filter((route) => route.method === 'GET' && !route.path.includes('{'));

  it('serves every GET route without path parameters with an answer its schema accepts', async () => {
    expect(plainGets.length).toBeGreaterThan(15);
    for (const route of plainGets) {
      const { auth } = route.handler.spec;
      const headers = auth !== 'none' && !auth.apiKey ? sessionHeaders : keyHeaders;
      const res = await nextRoutes.GET(new Request(`http://localhost:3000${route.path}`, { headers }));
      expect(res.status, `${route.path}: ${res.status === 200 ? '' : await res.clone().text()}`).toBe(200);
      expect(res.headers.get('content-type'), route.path).toBe('application/json; charset=utf-8');
    }
  });

  it('answers the CSV download of violations as text/csv', async () => {
    const res = await nextRoutes.GET(new Request('http://localhost:3000/api/v1/violations?format=csv', { headers: keyHeaders }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('answers a path no route serves with the 404 envelope', async () => {
    const res = await nextRoutes.POST(
      new Request('http://localhost:3000/api/v1/nothing-here', { method: 'POST', headers: { ...keyHeaders, 'x-request-id': 'unknown-1' } }),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'Nothing is served at /api/v1/nothing-here.' },
      request_id: 'unknown-1',
    });
  });

  it('answers a malformed id as an unknown one: 404 not_found after the auth check', async () => {
    const unknown = await nextRoutes.GET(new Request('http://localhost:3000/api/v1/approvals/apr_missing', { headers: keyHeaders }));
    const malformed = await nextRoutes.GET(
      new Request(`http://localhost:3000/api/v1/approvals/${'x'.repeat(65)}`, { headers: keyHeaders }),
    );
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    expect((await malformed.json()).error).toMatchObject({ code: 'not_found', details: { resource: 'approval' } });
    expect((await nextRoutes.GET(new Request(`http://localhost:3000/api/v1/approvals/${'x'.repeat(65)}`))).status).toBe(401);
  });
});
