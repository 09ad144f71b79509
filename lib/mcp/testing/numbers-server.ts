import http from 'node:http';
import type net from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, type Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP server (the SDK's `Server`) whose answers hold numbers a double cannot hold, written as
 * a server in another language would write them: `"id": 9007199254740993`. A JavaScript server
 * cannot hold such a value, so its handlers put a marker string where the number goes and its
 * output is rewritten (`rawNumbers`) as it is written out, after the SDK serialized it.
 *
 * Tools: `lookup` answers `{token, where}` with the number in `structuredContent.id` (where
 * `structured`, the default), in `_meta` (`meta`), or answers a JSON-RPC error whose data holds it
 * (`error`); `plain` answers `{id: 42}`. With `listToken`, tools/list holds that number too.
 */
export interface NumbersServerOptions {
  /** A number token tools/list puts in `lookup`'s input schema (`maximum`). */
  listToken?: string;
}

const MARK = '\u0000raw-number:';
const MARKED = /"\\u0000raw-number:(-?[0-9][0-9.eE+-]*)"/g;

/** A number token as its marker: the string `rawNumbers` writes back as the bare token. */
export const rawNumber = (token: string) => `${MARK}${token}`;

/** The serialized text with every marker written as the number token it stands for. */
export function rawNumbers(text: string): string {
  return text.replace(MARKED, '$1');
}

export function createNumbersServer(options: NumbersServerOptions = {}): Server {
  const server = new Server({ name: 'numbers-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools: Tool[] = [
    {
      name: 'lookup',
      description: 'Looks an order up.',
      inputSchema: {
        type: 'object',
        properties: {
          token: { type: 'string' },
          where: { type: 'string', enum: ['structured', 'meta', 'error'] },
          ...(options.listToken ? { n: { type: 'number', maximum: rawNumber(options.listToken) as unknown as number } } : {}),
        },
        required: ['token'],
      },
    },
    { name: 'plain', description: 'Answers an ordinary number.', inputSchema: { type: 'object', properties: {} } },
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === 'plain') return { content: [{ type: 'text', text: 'found 42' }], structuredContent: { id: 42 } };
    const token = String(args.token);
    if (args.where === 'error') throw new McpError(ErrorCode.InternalError, 'lookup failed', { seq: rawNumber(token) });
    if (args.where === 'meta') return { content: [{ type: 'text', text: 'found' }], _meta: { 'example.com/seq': rawNumber(token) } };
    return { content: [{ type: 'text', text: 'found' }], structuredContent: { id: rawNumber(token), name: 'order' } };
  });
  return server;
}

/**
 * The numbers server over Streamable HTTP on 127.0.0.1 (a free port), stateless, answering each
 * POST with an SSE stream (the SDK's default) or, with `jsonResponse`, one JSON body.
 */
export async function startNumbersHttpServer(
  options: NumbersServerOptions & { jsonResponse?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
      const body = req.method === 'POST' ? Buffer.concat(chunks) : undefined;
      const server = createNumbersServer(options);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: options.jsonResponse,
      });
      await server.connect(transport);
      const response = await transport.handleRequest(
        new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers, body }),
      );
      const out: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        if (key !== 'content-length') out[key] = value;
      });
      res.writeHead(response.status, out);
      if (response.body) {
        const decoder = new TextDecoder();
        // Each event (or the JSON body) is one chunk as the SDK writes it: a marker is never split.
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          res.write(rawNumbers(decoder.decode(chunk, { stream: true })));
      }
      res.end();
      await server.close();
    })().catch((error: unknown) => {
      process.stderr.write(`numbers fixture: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
