import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { db } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listContractsHandler as listContracts } from '@/lib/api/handlers/contracts';
import { publishPolicyVersionHandler as publishPolicy, savePolicyDraftHandler as savePolicy } from '@/lib/api/handlers/policies';
import { listSurfacesHandler as listSurfaces } from '@/lib/api/handlers/surfaces';
import {
  getMcpServerHandler as getMcpServer,
  listMcpServersHandler as listMcpServers,
  reportMcpToolsHandler as reportMcpTools,
} from '@/lib/api/handlers/mcp-servers';
import { MAX_UPSTREAM_TOOLS } from '@/lib/mcp/tool-definition';

// Past SQLite's bound-parameter limit (999 on a statement), and past the 500 tools a
// server may pin now: rows from before that cap are still listed. Seeded in bulk, not through
// thousands of requests, so the file stays fast.
const CONTRACTS = 1_200;
const ROWS_PER_INSERT = 100;

let t: Awaited<ReturnType<typeof createTestTenant>>;
const toolName = (i: number) => `t${String(i).padStart(4, '0')}`;
const published = (i: number) => i % 10 !== 9;
const PUBLISHED = CONTRACTS - CONTRACTS / 10;

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await insert(rows.slice(i, i + ROWS_PER_INSERT));
}

/** `bulk.t0000`…: every contract has a draft 1.0.0; all but every tenth serve a published 0.9.0. */
async function seedContracts(tenantId: string) {
  const contracts = Array.from({ length: CONTRACTS }, (_, i) => ({
    id: randomUUID(),
    tenantId,
    name: `bulk.${toolName(i)}`,
    owner: 'team',
    description: `Bulk tool ${i}.`,
  }));
  const document = (id: string, version: string) => JSON.stringify({ ...lookupOrderContract, id, version });
  const versions = contracts.flatMap((contract, i) => [
    { tenantId, contractId: contract.id, version: '1.0.0', status: 'draft', document: document(contract.name, '1.0.0'), contentHash: 'a' },
    ...(published(i)
      ? [
          {
            id: `v-${contract.id}`,
            tenantId,
            contractId: contract.id,
            version: '0.9.0',
            status: 'published',
            document: document(contract.name, '0.9.0'),
            contentHash: 'b',
            publishedAt: new Date(),
          },
        ]
      : []),
  ]);
  await insertInChunks(contracts, (data) => db().contract.createMany({ data }));
  await insertInChunks(versions, (data) => db().contractVersion.createMany({ data }));
  await db().$executeRaw`UPDATE "Contract" SET "latestVersionId" = 'v-' || "id"
    WHERE "tenantId" = ${tenantId} AND EXISTS (SELECT 1 FROM "ContractVersion" v WHERE v."id" = 'v-' || "Contract"."id")`;
}

/** A stdio server whose tools were pinned before a server was capped at 500: one per contract. */
async function seedServerTools(tenantId: string, server: string, count: number) {
  const { id: serverId } = await db().mcpServer.create({ data: { tenantId, name: server, transport: 'stdio' } });
  const tools = Array.from({ length: count }, (_, i) => ({
    tenantId,
    serverId,
    name: toolName(i),
    contractId: `bulk.${toolName(i)}`,
    pinnedHash: 'h',
    pinnedDefinition: JSON.stringify({ name: toolName(i), inputSchema: { type: 'object' } }),
  }));
  await insertInChunks(tools, (data) => db().mcpTool.createMany({ data }));
}

/** Surfaces `bulk-0000`…, one draft each. */
async function seedSurfaces(tenantId: string, count: number) {
  const surfaces = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), tenantId, kind: 'surface', name: `bulk-${toolName(i)}` }));
  const versions = surfaces.map((surface) => ({
    tenantId,
    documentId: surface.id,
    version: '1.0.0',
    status: 'draft',
    document: JSON.stringify({ id: surface.name, version: '1.0.0', tools: [] }),
    contentHash: 'c',
  }));
  await insertInChunks(surfaces, (data) => db().studioDocument.createMany({ data }));
  await insertInChunks(versions, (data) => db().studioDocumentVersion.createMany({ data }));
}

beforeAll(async () => {
  t = await createTestTenant();
  await seedContracts(t.tenant.id);
  await seedServerTools(t.tenant.id, 'bulk', CONTRACTS);
  await seedSurfaces(t.tenant.id, CONTRACTS);
});

describe('listings of a large tenant', () => {
  it('lists 1,200 contracts with their versions and served versions', async () => {
    const listed = await call(listContracts, { key: t.adminKey });
    expect(listed.status).toBe(200);
    const contracts = listed.body.contracts as { tool: string; latestVersion: string | null; versions: { version: string }[] }[];
    expect(contracts).toHaveLength(CONTRACTS);
    expect(contracts[0]).toMatchObject({ tool: 'bulk.t0000', latestVersion: '0.9.0' });
    expect(contracts[9]).toMatchObject({ tool: 'bulk.t0009', latestVersion: null, versions: [{ version: '1.0.0', status: 'draft' }] });
    expect(contracts.filter((c) => c.latestVersion === '0.9.0')).toHaveLength(PUBLISHED);
    expect(contracts.reduce((sum, c) => sum + c.versions.length, 0)).toBe(CONTRACTS + PUBLISHED);
  });

  it('lists 1,200 surfaces', async () => {
    const surfaces = await call(listSurfaces, { key: t.adminKey });
    expect(surfaces.status).toBe(200);
    expect(surfaces.body.surfaces).toHaveLength(CONTRACTS);
    expect(surfaces.body.surfaces[0]).toMatchObject({
      id: 'bulk-t0000',
      latestVersion: null,
      versions: [{ version: '1.0.0', status: 'draft' }],
    });
  });

  it('publishes a policy, linted against the 1,080 served contracts', async () => {
    const policy = {
      id: 'bulk-holds',
      version: '1.0.0',
      rules: [{ id: 'hold', tools: ['bulk.t0000'], decision: 'require_approval', roles: ['admin'] }],
    };
    expect((await call(savePolicy, { key: t.adminKey, body: policy })).status).toBe(201);
    const publishedPolicy = await call(publishPolicy, { key: t.adminKey, params: { id: 'bulk-holds', version: '1.0.0' }, body: {} });
    expect(publishedPolicy.status).toBe(200);
  });

  it("shows a server of 1,200 tools, each with its contract's served version", async () => {
    const view = await call(getMcpServer, { key: t.adminKey, params: { server: 'bulk' } });
    expect(view.status).toBe(200);
    const tools = view.body.tools as { name: string; status: string; published_version: string | null }[];
    expect(tools).toHaveLength(CONTRACTS);
    expect(tools[0]).toMatchObject({ name: 't0000', status: 'published', published_version: '0.9.0' });
    expect(tools[9]).toMatchObject({ name: 't0009', status: 'unpublished', published_version: null });
    expect(tools.filter((tool) => tool.status === 'published')).toHaveLength(PUBLISHED);

    const servers = await call(listMcpServers, { key: t.adminKey });
    expect(servers.status).toBe(200);
    expect(servers.body.servers.find((s: { name: string }) => s.name === 'bulk').tools).toHaveLength(CONTRACTS);
  });

  it('pins at most 500 tools on a server across reports, and says which were not pinned', async () => {
    const already = MAX_UPSTREAM_TOOLS - 20;
    await seedServerTools(t.tenant.id, 'capped', already);
    const listing = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ name: toolName(from + i), inputSchema: { type: 'object' } }));

    const report = await call(reportMcpTools, {
      key: t.agentKey,
      params: { server: 'capped' },
      body: { tools: listing(already - 10, already + 40) },
    });
    expect(report.status).toBe(200);
    expect(report.body.tools).toHaveLength(30);
    expect(report.body.problems).toEqual([
      `the server has ${MAX_UPSTREAM_TOOLS} tools pinned, the most a server may have; 20 new tools were not pinned (the first: "${toolName(MAX_UPSTREAM_TOOLS)}")`,
    ]);
    expect(await db().mcpTool.count({ where: { tenantId: t.tenant.id, server: { name: 'capped' } } })).toBe(MAX_UPSTREAM_TOOLS);
    expect(await db().contract.count({ where: { tenantId: t.tenant.id, name: { startsWith: 'capped.' } } })).toBe(20);

    const again = await call(reportMcpTools, { key: t.agentKey, params: { server: 'capped' }, body: { tools: listing(600, 700) } });
    expect(again.status).toBe(200);
    expect(again.body.tools).toEqual([]);
    expect(again.body.problems).toEqual([
      `the server has ${MAX_UPSTREAM_TOOLS} tools pinned, the most a server may have; 100 new tools were not pinned (the first: "t0600")`,
    ]);
    expect(await db().mcpTool.count({ where: { tenantId: t.tenant.id, server: { name: 'capped' } } })).toBe(MAX_UPSTREAM_TOOLS);

    const view = await call(getMcpServer, { key: t.adminKey, params: { server: 'capped' } });
    expect(view.status).toBe(200);
    expect(view.body.tools).toHaveLength(MAX_UPSTREAM_TOOLS);
  });
});
