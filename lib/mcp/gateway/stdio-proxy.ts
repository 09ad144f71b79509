import type { Readable, Writable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createToolgateClient } from '@toolgate/sdk';
import { log } from '../../log';
import { createHttpEngine } from './http-engine';
import { GatewaySession, createGatewayServer, type GatewayLimits } from './gateway-session';
import { StdioLineTransport } from './stdio-line-transport';
import { ScreenedStdioClientTransport } from './stdio-client-transport';
import { Upstream } from './upstream';

export interface StdioProxyOptions {
  server: string;
  toolgateUrl: string;
  apiKey: string;
  command: string;
  args: readonly string[];
  /** The environment the upstream runs with: the proxy's own, without Toolgate's key. */
  env: NodeJS.ProcessEnv;
  limits: GatewayLimits;
  stdin?: Readable;
  stdout?: Writable;
  /** Resolves when the proxy is told to stop (a signal): it stops as when the client goes away. */
  stop?: Promise<void>;
}

/** Variables the upstream never sees: the agent's Toolgate key is the proxy's alone. */
const WITHHELD_ENV = new Set(['TOOLGATE_API_KEY', 'TOOLGATE_URL']);

/**
 * `toolgate mcp proxy`: speaks MCP on its own stdin/stdout to the client that launched it
 * (Claude Desktop, Cursor, an agent SDK), starts the real server as its child, and puts every
 * tools/list and tools/call through Toolgate's gate over the HTTP API. Resolves when the client
 * goes away (stdin closes); the child is stopped then.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<void> {
  const childEnv: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined && !WITHHELD_ENV.has(name)) childEnv[name] = value;
  const describe = `${options.server} (${options.command})`;
  const upstream = new Upstream(
    () =>
      // Its messages are screened for numbers a double cannot hold before they are parsed (upstream-numbers.ts).
      new ScreenedStdioClientTransport(
        {
          command: options.command,
          args: [...options.args],
          env: childEnv,
          // The child's own logs stay on stderr, next to ours; stdout is the protocol.
          stderr: 'inherit',
          // A message this large ends the child's connection (it is started again on the next call).
          maxBufferSize: Math.max(options.limits.maxResultBytes * 4, 16 * 1024 * 1024),
        },
        describe,
      ),
    describe,
  );
  const client = createToolgateClient({ baseUrl: options.toolgateUrl, apiKey: options.apiKey });
  const engine = createHttpEngine({ client, apiKey: options.apiKey, server: options.server });
  let notify = () => {};
  const session = new GatewaySession(options.server, engine, upstream, options.limits, () => notify());
  const server = createGatewayServer(session);
  server.onerror = (error) => log.warn('mcp proxy error', { server: options.server, error: error.message.slice(0, 300) });
  const transport = new StdioLineTransport(options.stdin ?? process.stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  notify = () => void server.sendToolListChanged().catch(() => undefined);
  log.info('mcp proxy started', { server: options.server, command: options.command, toolgate: client.baseUrl });
  const stdin = options.stdin ?? process.stdin;
  const ended = new Promise<void>((resolve) => stdin.once('end', () => resolve()).once('close', () => resolve()));
  // Stopping closes the upstream: a call in flight fails there and its post record (an error) is
  // still sent before the process ends; killed outright, the trace kept only its pre record.
  await Promise.race([closed, ended, ...(options.stop ? [options.stop] : [])]);
  session.close();
  await upstream.close();
  await server.close().catch(() => undefined);
  // Told to stop while the client still has stdin open: reading it would keep the process alive.
  stdin.destroy();
  log.info('mcp proxy stopped', { server: options.server });
}
