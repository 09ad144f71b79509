import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch';
import { Upstream } from './upstream';

// A hand-written upstream: /hanging never answers the handshake; /looping answers it and lists
// ten tools a page with a cursor that never ends; /odd-schemas lists tools whose output schemas
// no validator could compile, or only by filling the memory. Counts what it was asked.
let server: http.Server;
let base = '';
const open = new Set<http.IncomingMessage>();
let pagesListed = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    if (req.url === '/hanging') {
      open.add(req);
      res.once('close', () => open.delete(req));
      return;
    }
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(text) as { id?: number; method: string; params?: { cursor?: string } };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === 'tools/list') pagesListed += 1;
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'looping', version: '1.0.0' } }
          : req.url === '/odd-schemas'
            ? { tools: ODD_OUTPUT_SCHEMAS.map((outputSchema, i) => ({ name: `odd_${i}`, inputSchema: { type: 'object' }, outputSchema })) }
            : {
                tools: Array.from({ length: 10 }, (_, i) => ({
                  name: `tool_${pagesListed}_${i}`,
                  inputSchema: { type: 'object' },
                })),
                nextCursor: `page-${pagesListed}`,
              };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const upstreamAt = (path: string, connectTimeoutMs?: number) =>
  new Upstream(
    () =>
      new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
        fetch: guardedFetch({ allowPrivate: true, maxBytes: 1_000_000, requestTimeoutMs: 30_000 }),
      }),
    path,
    [],
    connectTimeoutMs,
  );

/** A definition of 1,000 properties named from 1,000 places: a validator that copies it into each is a million checks. */
const REFERENCE_BOMB = {
  type: 'object',
  $defs: { a: { type: 'object', properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`q${i}`, { minimum: i }])) } },
  properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { $ref: '#/$defs/a' }])),
};
const ODD_OUTPUT_SCHEMAS = [
  { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
  { type: 'object', $id: 'x' },
  { type: 'object', $id: 'x' },
  REFERENCE_BOMB,
];

describe('Upstream bounds', () => {
  it('gives up a handshake the upstream never answers at the connect timeout, and closes its connection', async () => {
    const upstream = upstreamAt('/hanging', 300);
    await expect(upstream.listTools({ timeoutMs: 20_000 })).rejects.toThrow(/timed out/i);
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(open.size).toBe(0);
    await upstream.close();
  });

  it('stops following a cursor once more tools than it can use are in', async () => {
    const upstream = upstreamAt('/looping');
    pagesListed = 0;
    const tools = await upstream.listTools({ timeoutMs: 20_000, maxTools: 25 });
    expect(tools).toHaveLength(30);
    expect(pagesListed).toBe(3);
    await upstream.close();
  });

  it("lists tools whatever their output schemas hold: the gateway checks results against the contract, never compiles the upstream's schemas", async () => {
    const upstream = upstreamAt('/odd-schemas');
    const tools = (await upstream.listTools({ timeoutMs: 20_000 })) as { name: string; outputSchema: unknown }[];
    expect(tools.map((tool) => [tool.name, tool.outputSchema])).toEqual(ODD_OUTPUT_SCHEMAS.map((schema, i) => [`odd_${i}`, schema]));
    // Listed again on the same session (the SDK's own listing kept every compiled schema, a new one each time).
    expect(await upstream.listTools({ timeoutMs: 20_000 })).toHaveLength(ODD_OUTPUT_SCHEMAS.length);
    await upstream.close();
  });
});
