// An upstream's tool name that a text column cannot keep as sent (lib/stored-text.ts), as the
// stdio proxy reports it: a NUL failed the whole report on PostgreSQL (a bare 400 "out of the
// range the database can hold") and was pinned on SQLite; a lone surrogate was pinned as U+FFFD,
// which nothing matched again, so the tool vanished from the answer without a word. Such an entry
// is now one of the report's problems, on both databases, and the other tools are pinned as usual.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { getMcpDriftHandler as getDrift, reportMcpToolsHandler as reportTools } from '@/lib/api/handlers/mcp-servers';

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
});

const tool = (name: string) => ({ name, description: 'Searches.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });

describe('a reported tool name a text column cannot keep', () => {
  it('is a problem of the report, not a failed report or a silently lost tool', async () => {
    const res = await call(reportTools, {
      key: t.agentKey,
      params: { server: 'names' },
      body: { tools: [tool('nul\u0000name'), tool('lone\ud800'), tool('search')] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tools.map((entry: { name: string }) => entry.name)).toEqual(['search']);
    expect(res.body.problems).toEqual([
      'tool "nul\\u0000name": its name cannot contain NUL (U+0000)',
      'tool "lone\\ud800": its name cannot contain a lone surrogate (half of a UTF-16 pair)',
    ]);
    const pinned = await db().mcpTool.findMany({ where: { tenantId: t.tenant.id }, select: { name: true } });
    expect(pinned).toEqual([{ name: 'search' }]);
  });

  it('with a NUL, in a drift path, names no tool: 404 on both databases', async () => {
    const res = await call(getDrift, { key: t.adminKey, params: { server: 'names', tool: 'nul\u0000name' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      code: 'not_found',
      message: 'MCP tool "nul\u0000name" was not found',
      details: { resource: 'MCP tool', id: 'nul\u0000name' },
    });
  });
});
