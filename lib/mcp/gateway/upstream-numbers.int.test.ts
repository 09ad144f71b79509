import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/lib/db';
import { startGatewayHarness, type GatewayHarness } from '@/lib/testing/mcp-gateway-harness';
import { startNumbersHttpServer } from '@/lib/mcp/testing/numbers-server';

/**
 * An upstream's answers holding numbers a double cannot hold (docs/numbers.md), through both
 * gateways: the SDK's JSON.parse changed them (9007199254740993 reached the agent as
 * 9007199254740992). The upstream is a real MCP server built on the SDK, over stdio behind the
 * proxy and over Streamable HTTP (SSE and JSON answers) behind the hosted gateway.
 */

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const NUMBERS_STDIO = [process.execPath, '--import', 'tsx', path.join(root, 'lib/mcp/testing/numbers-server-stdio.ts')];

let h: GatewayHarness;
const servers: { close(): Promise<void> }[] = [];
const clients: Client[] = [];

/** `toolgate mcp proxy` in front of the numbers server, as an MCP client starts it. */
async function proxy(server: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'bin/toolgate.mjs'), 'mcp', 'proxy', '--server', server, '--url', h.base, '--', ...NUMBERS_STDIO],
    env: { PATH: process.env.PATH ?? '', TOOLGATE_API_KEY: h.tenant.agentKey, ...env },
    cwd: root,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The hosted gateway in front of the numbers server over Streamable HTTP. */
async function hosted(server: string, options: { jsonResponse: boolean; listToken?: string }): Promise<Client> {
  const upstream = await startNumbersHttpServer(options);
  servers.push(upstream);
  const registered = await h.api('POST', '/api/v1/mcp-servers', { name: server, url: upstream.url, approval_wait_seconds: 0 });
  expect(registered.status).toBe(201);
  return h.agent(server);
}

beforeAll(async () => {
  h = await startGatewayHarness();
  // Retained payloads show what was recorded of the upstream's answer.
  await db().tenant.update({ where: { id: h.tenant.tenant.id }, data: { storeRawArguments: true } });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const server of servers) await server.close();
  await h?.close();
});

const withheld = (tool: string, where: string) =>
  `The result of ${tool} was withheld (AXAG_NUMBER_UNREPRESENTABLE): it holds a number a double cannot hold exactly, and Toolgate does not pass it on changed. (1) ${where}. ` +
  `The ${tool} call ran, but do not use its result or call ${tool} again for it; have the tool report such numbers as strings.`;

const UNSAFE = 'an integer beyond ±(2^53−1) (9007199254740991), where doubles skip integers';

describe.each([
  { gateway: 'the stdio proxy', server: 'nums', connect: () => proxy('nums') },
  {
    gateway: 'the hosted gateway, upstream answering an event stream',
    server: 'numsse',
    connect: () => hosted('numsse', { jsonResponse: false }),
  },
  { gateway: 'the hosted gateway, upstream answering JSON', server: 'numjson', connect: () => hosted('numjson', { jsonResponse: true }) },
])('$gateway: numbers a double cannot hold in upstream answers', ({ server, connect }) => {
  let client: Client;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    client = await connect();
    await client.listTools();
    await h.publishImported(`${server}.lookup`);
    await h.publishImported(`${server}.plain`);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['lookup', 'plain']);
  });

  it('withholds a tools/call result holding 9007199254740993 in structuredContent, and records the refusal with the number as sent', async () => {
    expect(await call('lookup', { token: '9007199254740993' })).toEqual({
      content: [{ type: 'text', text: withheld('lookup', `$.result.structuredContent.id is 9007199254740993, ${UNSAFE}`) }],
      isError: true,
    });
    const posts = await db().evidence.findMany({
      where: { tenant: { tenantId: h.tenant.tenant.id }, tool: `${server}.lookup`, kind: 'post' },
      orderBy: { seq: 'asc' },
    });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ decision: 'deny', valid: false, mcpServer: server });
    const errors = JSON.parse(posts[0]!.errors) as { code: string; path: string; details: Record<string, unknown> }[];
    expect(errors.map((error) => [error.code, error.path, error.details.sent])).toEqual([
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.result.structuredContent.id', '9007199254740993'],
    ]);
    // The whole MCP result, as the upstream sent it: the number with all its digits.
    expect(posts[0]!.payload).toBe(
      '{"result":{"content":[{"type":"text","text":"found"}],"structuredContent":{"id":9007199254740993,"name":"order"}}}',
    );
  });

  it('withholds one holding 1e-400 in _meta, and one whose JSON-RPC error holds 1e400', async () => {
    expect(await call('lookup', { token: '1e-400', where: 'meta' })).toEqual({
      content: [
        {
          type: 'text',
          text: withheld('lookup', "$.result._meta['example.com/seq'] is 1e-400, not zero, but it would read as 0"),
        },
      ],
      isError: true,
    });
    expect(await call('lookup', { token: '1e400', where: 'error' })).toEqual({
      content: [
        {
          type: 'text',
          text: withheld('lookup', '$.error.data.seq is 1e400, beyond the largest double (it would read as Infinity)'),
        },
      ],
      isError: true,
    });
    const posts = await db().evidence.findMany({
      where: { tenant: { tenantId: h.tenant.tenant.id }, tool: `${server}.lookup`, kind: 'post' },
      orderBy: { seq: 'asc' },
    });
    expect(posts.slice(1).map((post) => [post.decision, (JSON.parse(post.errors) as { path: string }[]).map((e) => e.path)])).toEqual([
      ['deny', ["$.result._meta['example.com/seq']"]],
      ['deny', ['$.error.data.seq']],
    ]);
    expect(posts[2]!.payload).toContain('"seq":1e400');
  });

  it('passes ordinary numbers on as they are', async () => {
    const result = await call('plain', {});
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: 42 });
  });
});

describe('numbers a double cannot hold in an upstream tools/list', () => {
  const refused = {
    code: -32603,
    data: {
      code: 'number_unrepresentable',
      path: '$.result.tools[0].inputSchema.properties.n.maximum',
      problem: 'underflow',
      paths: ['$.result.tools[0].inputSchema.properties.n.maximum'],
    },
  };

  it.each([
    { gateway: 'the stdio proxy', connect: () => proxy('numlists', { NUMBERS_LIST_TOKEN: '1e-400' }) },
    { gateway: 'the hosted gateway (event stream)', connect: () => hosted('numlistsse', { jsonResponse: false, listToken: '1e-400' }) },
    { gateway: 'the hosted gateway (JSON)', connect: () => hosted('numlistjson', { jsonResponse: true, listToken: '1e-400' }) },
  ])('$gateway answers a JSON-RPC error naming the path, and pins nothing', async ({ connect }) => {
    const client = await connect();
    const error = await client.listTools().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject(refused);
    expect((error as McpError).message).toContain('$.result.tools[0].inputSchema.properties.n.maximum is 1e-400');
    expect(await db().mcpTool.count({ where: { tenantId: h.tenant.tenant.id, contractId: { startsWith: 'numlist' } } })).toBe(0);
  });
});
