import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { secretForms, upstreamErrorText } from './upstream-error';

/** At most this many pages of tools/list are read from one upstream (each page may hold many tools). */
const MAX_LIST_PAGES = 20;
/** How long the MCP handshake (initialize) may take: the SDK's own default is 60 s. */
export const CONNECT_TIMEOUT_MS = 15_000;

export interface UpstreamCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One upstream MCP server, through the SDK's Client. Connected on first use and again after it
 * died (a crashed stdio child is started anew by the next request), but a request that was in
 * flight when it died is never sent again: that is the caller's to report, since a
 * non-idempotent call may have run.
 */
export class Upstream {
  private connecting: Promise<Client> | null = null;
  /** The connected client, once `connecting` has settled: what a lost session is recognised by. */
  private current: Client | null = null;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private readonly secrets: readonly string[];

  /** `secrets`: what is sent to the upstream and must never come back out of Toolgate (its auth header's value). */
  constructor(
    private readonly makeTransport: () => Transport,
    private readonly describe: string,
    secrets: readonly string[] = [],
    private readonly connectTimeoutMs: number = CONNECT_TIMEOUT_MS,
  ) {
    this.secrets = secretForms(secrets);
  }

  /** The text of an error met talking to this upstream, fit for the agent, the log and evidence (lib/mcp/gateway/upstream-error.ts). */
  errorText(error: unknown): string {
    return upstreamErrorText(error, this.secrets);
  }

  /** Called when the upstream says its tools changed (notifications/tools/list_changed) or it reconnected. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private client(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error(`${this.describe} is closed`));
    if (!this.connecting) {
      const attempt = (async () => {
        const client = new Client({ name: 'toolgate-gateway', version: '1.0.0' });
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.toolsChanged());
        client.onclose = () => {
          if (this.connecting === attempt) this.connecting = null;
          if (this.current === client) this.current = null;
          this.toolsChanged();
        };
        try {
          await client.connect(this.makeTransport(), { timeout: this.connectTimeoutMs, maxTotalTimeout: this.connectTimeoutMs });
        } catch (error) {
          // A handshake that timed out leaves its transport open (a request still waiting on the
          // upstream): closed here, so a hanging upstream holds nothing once the attempt failed.
          await client.close().catch(() => undefined);
          throw error;
        }
        this.current = client;
        return client;
      })();
      this.connecting = attempt;
      // A failed connect is forgotten, so the next request tries again.
      attempt.catch(() => {
        if (this.connecting === attempt) this.connecting = null;
      });
    }
    return this.connecting;
  }

  /**
   * Runs `request` on the connected client; when the upstream answers that it does not know the
   * session (it restarted, or expired it), drops that client and runs it once more on a new
   * session. The MCP client does not start one itself, so a restarted upstream answered every
   * call with "No valid session ID" until Toolgate restarted. Sending again is safe: a request
   * refused for its session was not handled.
   */
  private async inSession<T>(request: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      return await request(client);
    } catch (error) {
      if (!isLostSession(error)) throw error;
      // Concurrent requests that met the same lost session share one new session.
      if (this.current === client) {
        this.current = null;
        this.connecting = null;
        await client.close().catch(() => undefined);
      }
      return request(await this.client());
    }
  }

  private toolsChanged(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Every tool the upstream lists (following pagination), as it sent them; no further page is
   * asked for once more than `maxTools` are in (the rest would go unused), and `timeoutMs`
   * bounds the whole listing, every page included (twenty pages of 15 s each, or a cursor that
   * never ends, held a tools/list for minutes and read tools past any use).
   */
  async listTools(options: UpstreamCallOptions & { maxTools?: number }): Promise<unknown[]> {
    const deadline = Date.now() + options.timeoutMs;
    return this.inSession((client) => this.listPages(client, deadline, options));
  }

  private async listPages(client: Client, deadline: number, options: UpstreamCallOptions & { maxTools?: number }): Promise<unknown[]> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.describe} did not finish listing its tools within ${options.timeoutMs} ms`);
      // Not the SDK's `listTools`: it compiles every tool's outputSchema with a validator of its
      // own (kept for `callTool`, unused here), so one schema it cannot compile failed the whole
      // listing, and one naming a large definition from many places filled the memory.
      const result = await client.request({ method: 'tools/list', ...(cursor ? { params: { cursor } } : {}) }, ListToolsResultSchema, {
        timeout: left,
        maxTotalTimeout: left,
        signal: options.signal,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor || (options.maxTools !== undefined && tools.length > options.maxTools)) break;
    }
    return tools;
  }

  /**
   * Sends tools/call once. The SDK's `callTool` is not used: it would check results against the
   * upstream's own outputSchema, where the gateway checks them against the published contract.
   */
  async callTool(
    params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
    options: UpstreamCallOptions,
  ): Promise<CallToolResult> {
    return this.inSession((client) =>
      client.request({ method: 'tools/call', params }, CallToolResultSchema, {
        timeout: options.timeoutMs,
        maxTotalTimeout: options.timeoutMs,
        signal: options.signal,
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = null;
    const connecting = this.connecting;
    this.connecting = null;
    if (connecting) await connecting.then((client) => client.close()).catch(() => undefined);
  }
}

/**
 * The upstream's answer that it does not know the session the request named (MCP Streamable
 * HTTP: 404 to a request with a session id; servers built on the SDK answer 400 "No valid
 * session ID provided").
 */
function isLostSession(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
}
