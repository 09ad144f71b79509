import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createFixtureServer, type FixtureServerOptions } from './fixture-server';
import { EVERYTHING_MCP_PATH, EVERYTHING_SCRIPT } from './fixture-launch';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface FixtureHttpOptions extends Omit<FixtureServerOptions, 'crash' | 'watchToolsFile'> {
  /** Answer with one JSON body instead of an SSE stream. */
  jsonResponse?: boolean;
}

function methodNotAllowed(res: http.ServerResponse): void {
  res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
}

/**
 * The fixture over Streamable HTTP on 127.0.0.1 (a free port), stateless as in the SDK's
 * simpleStatelessStreamableHttp example: each POST gets its own Server and transport. Stateless
 * servers have no stream to announce list changes on, so the tools file is not watched; `crash`
 * destroys the request's socket. `close()` also cuts requests still hanging.
 */
export async function startFixtureHttpServer(options: FixtureHttpOptions = {}): Promise<RunningServer> {
  const httpServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      methodNotAllowed(res);
      return;
    }
    const server = createFixtureServer({ ...options, watchToolsFile: false, crash: () => req.socket.destroy() });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: options.jsonResponse });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        process.stderr.write(`fixture http: ${error instanceof Error ? error.message : String(error)}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = httpServer.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()));
        httpServer.closeAllConnections();
      }),
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `@modelcontextprotocol/server-everything` over Streamable HTTP as a child process, on a free
 * port (or `port`, to start it again where it was). It says when it listens on stderr; a port taken between choosing and binding makes it
 * exit, and then another port is tried.
 */
export async function startEverythingHttp(options: { port?: number } = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(process.execPath, [EVERYTHING_SCRIPT, 'streamableHttp'], {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`server-everything did not start in 30 s:\n${output}`));
      }, 30_000);
      child.stderr.on('data', () => {
        if (output.includes(`listening on port ${port}`)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!started) {
      if (attempt < 3 && output.includes('already in use') && options.port === undefined) continue;
      throw new Error(`server-everything exited before listening:\n${output}`);
    }
    return {
      url: `http://127.0.0.1:${port}${EVERYTHING_MCP_PATH}`,
      async close() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  }
}
