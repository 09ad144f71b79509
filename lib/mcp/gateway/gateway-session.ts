import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { log } from '../../log';
import { gateToolCall, type CallToolLimits, type ToolCallRequest } from './call-tool';
import type { GateEngine, ToolReport } from './gate-engine';
import type { Upstream } from './upstream';
import { MAX_UPSTREAM_TOOLS } from '../tool-definition';
import { publicNumbersData, upstreamNumbers } from './upstream-numbers';

export interface GatewayLimits extends CallToolLimits {
  /** How long the upstream may take to answer tools/list. */
  listTimeoutMs: number;
  /** How long a tools/list report stays good for deciding calls, unless the upstream says its tools changed. */
  toolsTtlMs: number;
}

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = {
  callTimeoutMs: 60_000,
  listTimeoutMs: 15_000,
  maxResultBytes: 1024 * 1024,
  toolsTtlMs: 30_000,
};

/**
 * The gateway in front of one upstream for one caller: the upstream's tools as last reported
 * to Toolgate (refreshed on every tools/list, when the upstream says they changed, and at
 * least every `toolsTtlMs` before a call is decided, so a "rug pull" between two lists is
 * caught), and the gate every tools/call goes through.
 */
export class GatewaySession {
  private report: { at: number; value: ToolReport } | null = null;
  private refreshing: Promise<ToolReport> | null = null;
  private stale = false;
  private readonly unsubscribe: () => void;

  constructor(
    readonly server: string,
    private readonly engine: GateEngine,
    readonly upstream: Upstream,
    private readonly limits: GatewayLimits = DEFAULT_GATEWAY_LIMITS,
    private readonly onToolsChanged?: () => void,
  ) {
    this.unsubscribe = upstream.onToolsChanged(() => {
      this.stale = true;
      this.onToolsChanged?.();
    });
  }

  /** The upstream's tools as Toolgate sees them for this caller; `fresh` asks the upstream now. */
  async tools(fresh: boolean): Promise<ToolReport> {
    const current = this.report;
    if (!fresh && current && !this.stale && Date.now() - current.at < this.limits.toolsTtlMs) return current.value;
    // Concurrent callers share one refresh.
    this.refreshing ??= (async () => {
      try {
        this.stale = false;
        const listed = await this.upstream.listTools({ timeoutMs: this.limits.listTimeoutMs, maxTools: MAX_UPSTREAM_TOOLS });
        const value = await this.engine.reportTools(listed);
        this.report = { at: Date.now(), value };
        return value;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  async listTools(): Promise<ListToolsResult> {
    let report: ToolReport;
    try {
      report = await this.tools(true);
    } catch (error) {
      const reason = this.upstream.errorText(error);
      log.warn('mcp tools/list failed', { server: this.server, error: reason });
      // Not an McpError: its message starts "MCP error -32603:", which the SDK sends as the
      // message, and the client's McpError adds the prefix again ("MCP error -32603: MCP error -32603: …").
      // An answer holding a number a double cannot hold says where, as the proxy's own refusals do.
      const numbers = upstreamNumbers(error);
      throw Object.assign(new Error(`The ${this.server} server's tools could not be listed: ${reason}`), {
        code: ErrorCode.InternalError,
        ...(numbers ? { data: publicNumbersData(numbers) } : {}),
      });
    }
    // MCP requires object input schemas; a contract's input always describes an object of arguments.
    const tools = report.tools.flatMap((tool) =>
      tool.tool ? [{ ...tool.tool, inputSchema: { ...tool.tool.inputSchema, type: 'object' } }] : [],
    );
    return { tools: tools as ListToolsResult['tools'] };
  }

  /** The server's settings as the caller last read them, when fresher than the last report's (the hosted gateway reads its row per request). */
  settings: Partial<ToolReport['server']> | null = null;

  async callTool(request: ToolCallRequest, signal?: AbortSignal): Promise<CallToolResult> {
    let report: ToolReport;
    try {
      report = await this.tools(false);
      if (this.settings) report = { ...report, server: { ...report.server, ...this.settings } };
    } catch (error) {
      const reason = this.upstream.errorText(error);
      log.warn('mcp upstream unavailable', { server: this.server, error: reason });
      return {
        content: [
          { type: 'text', text: `The ${this.server} server is not available (${reason}); the call was not made. Try again later.` },
        ],
        isError: true,
      };
    }
    return gateToolCall({
      server: this.server,
      engine: this.engine,
      upstream: this.upstream,
      report,
      limits: this.limits,
      request,
      signal,
    });
  }

  close(): void {
    this.unsubscribe();
  }
}

/**
 * The MCP server the agent talks to: tools/list and tools/call answered by the session, with
 * the official SDK's low-level Server (a proxy passes arbitrary JSON Schemas through, which the
 * high-level McpServer's Zod-based registration cannot).
 */
export function createGatewayServer(session: GatewaySession): Server {
  const server = new Server(
    { name: `toolgate-${session.server}`, version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } }, jsonSchemaValidator: sharedValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => session.listTools());
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    session.callTool(
      {
        name: request.params.name,
        arguments: request.params.arguments ?? {},
        ...(request.params._meta ? { _meta: request.params._meta } : {}),
      },
      extra.signal,
    ),
  );
  return server;
}

// The hosted gateway makes a Server per request (stateless Streamable HTTP); each would build its
// own Ajv instance otherwise (measured: 180-350 us of CPU per request, 11-45 us shared).
let validator: AjvJsonSchemaValidator | undefined;
function sharedValidator(): AjvJsonSchemaValidator {
  return (validator ??= new AjvJsonSchemaValidator());
}
