// A hosted MCP server's auth header value is stored encrypted and sent with every request to the
// upstream. A value an HTTP header cannot carry was registered (201) and stored: a lone surrogate
// as U+FFFD, a character past U+00FF as written, which fetch then refuses to send, so every call
// through the gateway failed. Refused at registration, naming the field, on both databases.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { registerMcpServerHandler as register, updateMcpServerHandler as update } from '@/lib/api/handlers/mcp-servers';

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
});

const problem = 'must hold only what an HTTP header carries: tab, space, printable ASCII or Latin-1';

describe('an MCP auth header value an HTTP header cannot carry', () => {
  it.each([
    ['a lone surrogate', 'Bearer \ud800'],
    ['a character past U+00FF', 'Bearer 令牌'],
    ['a control character', 'Bearer \u0001x'],
  ])('with %s is refused at registration, and nothing is stored', async (_what, value) => {
    const res = await call(register, {
      key: t.adminKey,
      body: { name: 'hdr', url: 'https://mcp.example.com/mcp', auth_header: { name: 'Authorization', value } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'bad_request',
      message: `Invalid body: auth_header.value: ${problem}`,
      details: { issues: [{ path: 'auth_header.value', message: problem }] },
    });
    expect(await db().mcpServer.count({ where: { tenantId: t.tenant.id, name: 'hdr' } })).toBe(0);
  });

  it('is refused when changed too; Latin-1 and tabs are kept', async () => {
    const created = await call(register, {
      key: t.adminKey,
      body: { name: 'latin', url: 'https://mcp.example.com/mcp', auth_header: { name: 'X-Key', value: 'clé\tñ' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const changed = await call(update, {
      key: t.adminKey,
      params: { server: 'latin' },
      body: { auth_header: { name: 'X-Key', value: 'ключ' } },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details.issues).toEqual([{ path: 'auth_header.value', message: problem }]);
  });
});
