import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { matchApiRoute } from '../api/routes';
import { createDataPlaneServer } from '../data-plane/server';
import { getDocumentVersionOrThrow } from '../documents/get-document-version-or-throw';
import { publishDocumentVersion } from '../documents/publish-document-version';
import { saveDocumentDraft } from '../documents/save-document-draft';
import { resetEnvForTests } from '../env';
import { createTestTenant } from './fixtures';
import { startFixtureHttpServer, type RunningServer } from '../mcp/testing/fixture-server-http';
import { DEFAULT_FIXTURE_TOOLS, writeFixtureTools } from '../mcp/testing/fixture-tools';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
export type Json = Record<string, any>;

/**
 * What the gateway's integration tests share: a tenant, the fixture upstream over Streamable
 * HTTP, the data plane in process (it serves the hosted gateway), the management API through
 * the route table's own handlers, and agents connected with the official SDK Client.
 */
export interface GatewayHarness {
  tenant: Awaited<ReturnType<typeof createTestTenant>>;
  base: string;
  upstream: RunningServer;
  toolsFile: string;
  callsFile: string;
  api(method: string, urlPath: string, body?: unknown, key?: string): Promise<{ status: number; body: Json }>;
  agent(server: string, key?: string): Promise<Client>;
  /** Publishes the draft the gateway imported (version 0.1.0) after giving it an owner and applying `edit`. */
  publishImported(contractId: string, edit?: (document: Json) => void): Promise<void>;
  close(): Promise<void>;
}

export async function startGatewayHarness(env: Record<string, string> = {}): Promise<GatewayHarness> {
  const setEnv = { TOOLGATE_MCP_ALLOW_PRIVATE: '1', ...env };
  Object.assign(process.env, setEnv);
  resetEnvForTests();
  const tenant = await createTestTenant();
  const dir = await mkdtemp(path.join(tmpdir(), 'tg-mcp-'));
  const toolsFile = path.join(dir, 'tools.json');
  const callsFile = path.join(dir, 'calls.jsonl');
  await writeFixtureTools(toolsFile, DEFAULT_FIXTURE_TOOLS);
  const upstream = await startFixtureHttpServer({ toolsFile, callsFile, jsonResponse: true });
  const dataPlane: http.Server = createDataPlaneServer();
  await new Promise<void>((resolve) => dataPlane.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(dataPlane.address() as AddressInfo).port}`;
  const clients: Client[] = [];

  return {
    tenant,
    base,
    upstream,
    toolsFile,
    callsFile,
    async api(method, urlPath, body, key = tenant.adminKey) {
      const matched = matchApiRoute(urlPath);
      const route = matched?.group.routes.get(method as never);
      if (!matched || !route) throw new Error(`no route for ${method} ${urlPath}`);
      const res = await route.handler(
        new Request(`http://localhost:3000${urlPath}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { params: matched.params },
      );
      return { status: res.status, body: (await res.json()) as Json };
    },
    async agent(server, key = tenant.agentKey) {
      const client = new Client({ name: 'test-agent', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/api/v1/mcp/${server}`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async publishImported(contractId, edit = () => {}) {
      const draft = await getDocumentVersionOrThrow({ tenantId: tenant.tenant.id, kind: 'contract', id: contractId, version: '0.1.0' });
      const document = JSON.parse(JSON.stringify(draft.document)) as Json;
      document.owner = 'platform-team';
      edit(document);
      await saveDocumentDraft({ tenantId: tenant.tenant.id, kind: 'contract', document });
      await publishDocumentVersion({
        tenantId: tenant.tenant.id,
        kind: 'contract',
        id: contractId,
        version: '0.1.0',
        changeNote: 'reviewed',
      });
    },
    async close() {
      for (const client of clients) await client.close().catch(() => undefined);
      await new Promise((resolve) => dataPlane.close(resolve));
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
      for (const name of Object.keys(setEnv)) delete process.env[name];
      resetEnvForTests();
    },
  };
}

/** The text of a tool result's first content block. */
export function resultText(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}
