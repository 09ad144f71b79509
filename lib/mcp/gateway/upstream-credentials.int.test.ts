import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/lib/db';
import { startGatewayHarness, resultText, type GatewayHarness } from '@/lib/testing/mcp-gateway-harness';

// The upstream's auth header is sent to the upstream and nowhere else (docs/mcp-gateway.md). An
// upstream that refuses a request may quote it back in its HTTP body, which the MCP SDK puts
// into the error's message; what the gateway makes of that message reaches the agent, the log
// and evidence with every form of the credential redacted.

const TOKEN = 'SUPERSECRET-123';
const HEADER = `Bearer ${TOKEN}`;
const BASIC_PASSWORD = 'hunter2-basic-pw';
const BASIC = `Basic ${Buffer.from(`svc:${BASIC_PASSWORD}`).toString('base64')}`;
const leaks = [TOKEN, encodeURIComponent(HEADER), Buffer.from(TOKEN).toString('base64'), BASIC_PASSWORD, BASIC.slice(6)];

let h: GatewayHarness;
let front: http.Server;
let frontUrl = '';
/** What the upstream in front of the fixture does now: pass every request on, or refuse some, quoting what it was sent. */
let mode: { refuse: 'nothing' | 'everything' | 'tools/call'; status: number } = { refuse: 'nothing', status: 401 };
const logged: string[] = [];

/** A body that quotes the credential it was sent in every form the probe could think of. */
function echoing(received: string): string {
  const credentials = received.replace(/^\S+\s+/, '');
  const decoded = /^Basic /.test(received) ? Buffer.from(credentials, 'base64').toString('utf8') : '';
  return JSON.stringify({
    error: `no ${credentials}`,
    header: received,
    url: `https://idp.example/check?token=${encodeURIComponent(received)}`,
    b64: Buffer.from(credentials).toString('base64'),
    decoded,
    padding: 'x'.repeat(50),
  });
}

beforeAll(async () => {
  h = await startGatewayHarness({ TOOLGATE_MCP_CALL_TIMEOUT_SECONDS: '5' });
  front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = body ? ((JSON.parse(body) as { method?: string }).method ?? '') : '';
      if (mode.refuse === 'everything' || (mode.refuse === 'tools/call' && method === 'tools/call')) {
        res.writeHead(mode.status, { 'content-type': 'application/json' }).end(echoing(req.headers.authorization ?? ''));
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'accept', 'mcp-protocol-version']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      fetch(h.upstream.url, { method: req.method, headers, body: body || undefined })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`;

  process.env.TOOLGATE_LOG = '1';
  const capture = (stream: NodeJS.WriteStream) => {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    });
  };
  capture(process.stdout);
  capture(process.stderr);
});

afterEach(() => {
  mode = { refuse: 'nothing', status: 401 };
});

afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.TOOLGATE_LOG;
  await new Promise((resolve) => front?.close(resolve));
  await h?.close();
});

function expectNoLeak(text: string) {
  for (const leak of leaks) expect(text).not.toContain(leak);
  expect(text.toLowerCase()).not.toContain(TOKEN.toLowerCase());
}

async function register(name: string, value: string) {
  const registered = await h.api('POST', '/api/v1/mcp-servers', {
    name,
    url: frontUrl,
    auth_header: { name: 'Authorization', value },
    approval_wait_seconds: 0,
  });
  expect(registered.status).toBe(201);
}

describe("the upstream's credentials in what it answers", () => {
  it.each([
    [401, HEADER],
    [500, BASIC],
  ])('are redacted from a failed tools/list (%i) in the JSON-RPC error and the log', async (status, value) => {
    const server = `cred${status}`;
    await register(server, value);
    mode = { refuse: 'everything', status };
    logged.length = 0;
    const agent = await h.agent(server);
    const failed = await agent.listTools().then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failed).toContain(`${status}`);
    expectNoLeak(failed!);
    expect(failed).toContain('[redacted]');
    expect(failed!.length).toBeLessThan(500);
    const warned = logged.filter((line) => line.includes('mcp tools/list failed'));
    expect(warned.length).toBeGreaterThan(0);
    expectNoLeak(logged.join('\n'));
    expect(warned.join('\n')).toContain('[redacted]');
  });

  it.each([401, 500])('are redacted from a failed tools/call (%i) in the isError result, evidence and the log', async (status) => {
    await register(`call${status}`, HEADER);
    const agent = await h.agent(`call${status}`);
    expect((await agent.listTools()).tools).toEqual([]);
    await h.publishImported(`call${status}.echo`);
    expect((await agent.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);

    mode = { refuse: 'tools/call', status };
    logged.length = 0;
    const result = (await agent.callTool({ name: 'echo', arguments: { text: 'hi' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toContain(`${status}`);
    expectNoLeak(text);
    expect(text).toContain('[redacted]');
    expectNoLeak(logged.join('\n'));
    const evidence = await db().evidence.findMany({ where: { tenant: { tenantId: h.tenant.tenant.id }, tool: `call${status}.echo` } });
    expect(evidence.length).toBeGreaterThan(0);
    expectNoLeak(JSON.stringify(evidence));
  });
});
