import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/lib/db';
import { decideApproval } from '@/lib/approvals/decide-approval';
import { startGatewayHarness, type GatewayHarness, type Json } from '@/lib/testing/mcp-gateway-harness';
import { DEFAULT_FIXTURE_TOOLS, readFixtureCalls } from '@/lib/mcp/testing/fixture-tools';
import { registerMcpServer } from '@/lib/mcp/servers/register-mcp-server';
import { reportMcpTools } from '@/lib/mcp/tools/report-mcp-tools';

let h: GatewayHarness;
let t: GatewayHarness['tenant'];
let callsFile = '';
const agent = () => h.agent('rc');

beforeAll(async () => {
  h = await startGatewayHarness();
  ({ tenant: t, callsFile } = h);
  await registerMcpServer({ tenantId: t.tenant.id, input: { name: 'rc', url: h.upstream.url, approval_wait_seconds: 0 } });
});

afterAll(async () => {
  await h?.close();
});

describe('the MCP gateway under concurrency', () => {
  it('pins each tool and imports each draft once when many gateways report the same new server at once', async () => {
    const tools = DEFAULT_FIXTURE_TOOLS.map((tool) => ({ ...tool }));
    const reports = await Promise.all(
      Array.from({ length: 8 }, () =>
        reportMcpTools({ tenantId: t.tenant.id, server: 'rc', transport: 'http', tools, actor: { kind: 'system' } }),
      ),
    );
    for (const report of reports) expect(report.tools.map((tool) => tool.contract_id)).toContain('rc.refund');
    const pins = await db().mcpTool.groupBy({ by: ['contractId'], where: { tenantId: t.tenant.id }, _count: true });
    expect(pins.every((pin) => pin._count === 1)).toBe(true);
    expect(pins).toHaveLength(DEFAULT_FIXTURE_TOOLS.length);
    const drafts = await db().contractVersion.groupBy({ by: ['contractId'], where: { tenantId: t.tenant.id }, _count: true });
    expect(drafts.every((draft) => draft._count === 1)).toBe(true);
  });

  it('lets exactly one of several simultaneous retries ride on one approval', async () => {
    await h.publishImported('rc.refund', (document: Json) => {
      document.annotations.approval_required = true;
      document.annotations.approver_roles = ['admin'];
    });
    const client = await agent();
    const args = { order_id: 'ord_race', amount: 3 };
    const held = (await client.callTool({ name: 'refund', arguments: args })) as CallToolResult;
    expect(held.isError).toBe(true);
    const approval = await db().approval.findFirstOrThrow({ where: { tenantId: t.tenant.id, tool: 'rc.refund', status: 'pending' } });
    await decideApproval({
      tenantId: t.tenant.id,
      id: approval.id,
      decision: 'approve',
      approver: { kind: 'api_key', apiKeyId: (await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id, name: 'admin' } })).id },
      requestId: 'race-test',
    });
    const clientsForRace = await Promise.all(Array.from({ length: 5 }, () => agent()));
    const results = (await Promise.all(clientsForRace.map((c) => c.callTool({ name: 'refund', arguments: args })))) as CallToolResult[];
    expect(results.filter((result) => !result.isError)).toHaveLength(1);
    expect((await readFixtureCalls(callsFile)).filter((call) => call.tool === 'refund')).toHaveLength(1);
  });

  it('caps the servers a tenant can have, also those that validate keys create by reporting a new name', async () => {
    const report = (name: string) =>
      reportMcpTools({ tenantId: t.tenant.id, server: name, transport: 'stdio', tools: [], actor: { kind: 'system' } });
    const existing = await db().mcpServer.count({ where: { tenantId: t.tenant.id } });
    for (let i = existing; i < 50; i += 1) await report(`proxy_${i}`);
    await expect(report('one_too_many')).rejects.toMatchObject({ code: 'conflict', details: { limit: 50 } });
    expect(await db().mcpServer.count({ where: { tenantId: t.tenant.id } })).toBe(50);
    // A known name still reports.
    await expect(report('proxy_49')).resolves.toMatchObject({ server: { name: 'proxy_49' } });
  });
});
