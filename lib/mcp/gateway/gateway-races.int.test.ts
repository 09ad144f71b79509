import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { publishDocumentVersion } from '@/lib/documents/publish-document-version';
import { saveDocumentDraft } from '@/lib/documents/save-document-draft';
import { getDocumentVersionOrThrow } from '@/lib/documents/get-document-version-or-throw';
import { decideApproval } from '@/lib/approvals/decide-approval';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startFixtureHttpServer, type RunningServer } from '@/lib/mcp/testing/fixture-server-http';
import { DEFAULT_FIXTURE_TOOLS, readFixtureCalls, writeFixtureTools } from '@/lib/mcp/testing/fixture-tools';
import { registerMcpServer } from '@/lib/mcp/servers/register-mcp-server';
import { reportMcpTools } from '@/lib/mcp/tools/report-mcp-tools';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let dataPlane: http.Server;
let base = '';
let upstream: RunningServer;
let dir = '';
let callsFile = '';
const clients: Client[] = [];

async function agent(): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/api/v1/mcp/rc`), {
      requestInit: { headers: { authorization: `Bearer ${t.agentKey}` } },
    }),
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  process.env.TOOLGATE_MCP_ALLOW_PRIVATE = '1';
  resetEnvForTests();
  t = await createTestTenant();
  dir = await mkdtemp(path.join(tmpdir(), 'tg-mcp-races-'));
  const toolsFile = path.join(dir, 'tools.json');
  callsFile = path.join(dir, 'calls.jsonl');
  await writeFixtureTools(toolsFile, DEFAULT_FIXTURE_TOOLS);
  upstream = await startFixtureHttpServer({ toolsFile, callsFile, jsonResponse: true });
  dataPlane = createDataPlaneServer();
  await new Promise<void>((resolve) => dataPlane.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(dataPlane.address() as AddressInfo).port}`;
  await registerMcpServer({ tenantId: t.tenant.id, input: { name: 'rc', url: upstream.url, approval_wait_seconds: 0 } });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await new Promise((resolve) => dataPlane.close(resolve));
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
  delete process.env.TOOLGATE_MCP_ALLOW_PRIVATE;
  resetEnvForTests();
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
    const draft = await getDocumentVersionOrThrow({ tenantId: t.tenant.id, kind: 'contract', id: 'rc.refund', version: '0.1.0' });
    const document = draft.document as Record<string, unknown> & { annotations: Record<string, unknown> };
    await saveDocumentDraft({
      tenantId: t.tenant.id,
      kind: 'contract',
      document: {
        ...document,
        owner: 'payments',
        annotations: { ...document.annotations, approval_required: true, approver_roles: ['admin'] },
      },
    });
    await publishDocumentVersion({ tenantId: t.tenant.id, kind: 'contract', id: 'rc.refund', version: '0.1.0', changeNote: 'reviewed' });
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
});
