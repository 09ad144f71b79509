import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { behaviourOf, readFixtureTools, recordFixtureCall, type FixtureBehaviour } from './fixture-tools';
import { FixtureTransport, MALFORMED_META_KEY, MALFORMED_SHAPES, type MalformedShape } from './fixture-transport';

export interface FixtureServerOptions {
  /** A JSON array of MCP tools, re-read on every `tools/list` and `tools/call`; the defaults when absent. */
  toolsFile?: string;
  /** Every `tools/call` appends `{tool, arguments, at}` as one JSON line here before it acts. */
  callsFile?: string;
  /**
   * How `crash` dies. The default exits the process with code 1, which is right for the stdio
   * entry; an HTTP server destroys the request's socket instead.
   */
  crash?: () => void;
  /** Send `notifications/tools/list_changed` when the tools file changes (default: when there is a tools file). */
  watchToolsFile?: boolean;
  watchIntervalMs?: number;
}

export const HUGE_DEFAULT_BYTES = 8 * 1024 * 1024;
/** Bounds on what a caller may ask of `huge` and `slow`, so a typo cannot take the machine down. */
export const HUGE_MAX_BYTES = 256 * 1024 * 1024;
export const SLOW_MAX_MS = 10 * 60 * 1000;

/**
 * An MCP server, built on the SDK's low-level `Server`, that the gateway's tests put behind the
 * gateway: its tool definitions change when its tools file does, and some of its tools misbehave
 * (crash, hang, malformed, huge, slow). Connect it to any SDK transport with `server.connect`;
 * the transport is wrapped so that `malformed` can send what the SDK would refuse to.
 */
export function createFixtureServer(options: FixtureServerOptions = {}): Server {
  const server = new Server({ name: 'toolgate-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listTools(options) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    recordFixtureCall(options.callsFile, { tool: request.params.name, arguments: args, at: new Date().toISOString() });
    const tool = (await listTools(options)).find((candidate) => candidate.name === request.params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return act(tool, behaviourOf(tool), args, extra.signal, options);
  });

  const watch = options.toolsFile !== undefined && options.watchToolsFile !== false;
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    let stopWatching = () => {};
    await connect(new FixtureTransport(transport, () => stopWatching()));
    if (watch && options.toolsFile !== undefined) {
      stopWatching = watchTools(options.toolsFile, options.watchIntervalMs ?? 50, () => {
        // The client may be gone already; a lost notification is what a real server would do too.
        server.sendToolListChanged().catch(() => {});
      });
    }
  };
  return server;
}

async function listTools(options: FixtureServerOptions): Promise<Tool[]> {
  try {
    return await readFixtureTools(options.toolsFile);
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
  }
}

function watchTools(file: string, interval: number, changed: () => void): () => void {
  const listener = (current: Stats, previous: Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) changed();
  };
  watchFile(file, { interval, persistent: false }, listener);
  return () => unwatchFile(file, listener);
}

function text(value: string): CallToolResult['content'][number] {
  return { type: 'text', text: value };
}

function refusal(message: string): CallToolResult {
  return { isError: true, content: [text(message)] };
}

function boundedInteger(value: unknown, fallback: number | undefined, max: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max ? value : undefined;
}

/** Rejects when the client cancels, so a hung or slow call does not outlive its request. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('cancelled'));
    signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}

async function act(
  tool: Tool,
  behaviour: FixtureBehaviour | undefined,
  args: Record<string, unknown>,
  signal: AbortSignal,
  options: FixtureServerOptions,
): Promise<CallToolResult> {
  switch (behaviour) {
    case 'echo': {
      if (typeof args.text !== 'string') return refusal('echo needs a string `text`');
      return { content: [text(args.text)], structuredContent: { text: args.text } };
    }
    case 'refund': {
      const { order_id: orderId, amount } = args;
      if (typeof orderId !== 'string' || typeof amount !== 'number' || !Number.isFinite(amount))
        return refusal('refund needs a string `order_id` and a number `amount`');
      const refunded = { refunded: amount, order_id: orderId };
      return { content: [text(JSON.stringify(refunded))], structuredContent: refunded };
    }
    case 'crash':
      (options.crash ?? (() => process.exit(1)))();
      return untilAborted(signal);
    case 'hang':
      return untilAborted(signal);
    case 'malformed': {
      const shape = args.shape ?? 'content_string';
      if (!(MALFORMED_SHAPES as readonly unknown[]).includes(shape)) return refusal(`shape must be one of ${MALFORMED_SHAPES.join(', ')}`);
      return { content: [], _meta: { [MALFORMED_META_KEY]: shape as MalformedShape } };
    }
    case 'huge': {
      const bytes = boundedInteger(args.bytes, HUGE_DEFAULT_BYTES, HUGE_MAX_BYTES);
      if (bytes === undefined) return refusal(`bytes must be an integer from 0 to ${HUGE_MAX_BYTES}`);
      return { content: [text('x'.repeat(bytes))] };
    }
    case 'slow': {
      const ms = boundedInteger(args.ms, undefined, SLOW_MAX_MS);
      if (ms === undefined) return refusal(`ms must be an integer from 0 to ${SLOW_MAX_MS}`);
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), untilAborted(signal)]);
      } finally {
        clearTimeout(timer);
      }
      return { content: [text(`answered after ${ms} ms`)] };
    }
    case undefined:
      // A tool the test made up: answer with its arguments, as structured content when it declares an output schema.
      return { content: [text(JSON.stringify(args))], ...(tool.outputSchema ? { structuredContent: args } : {}) };
  }
}
