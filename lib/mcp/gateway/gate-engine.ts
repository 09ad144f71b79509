import type { Approval, PostCallRequest, PreCallRequest, ValidationResponse } from '@toolgate/sdk/core';
import type { ToolReport } from '../tools/report-mcp-tools';

export type { ToolReport };

/**
 * Toolgate refused to check the call as sent (its context or arguments did not match the
 * request format, e.g. a `user_id` over 256 characters): the same call would be refused again,
 * where any other failure (Toolgate unreachable, its database down) may pass on a retry.
 */
export class CallRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CallRefusedError';
  }
}

/**
 * What the MCP gateway asks Toolgate, whichever way the gateway runs: in the data plane
 * (local-engine.ts, the hosted Streamable HTTP endpoint) or on the agent's machine
 * (http-engine.ts, the stdio proxy, through the HTTP API with the agent's API key). One gate:
 * both make the same decisions with the same evidence.
 */
export interface GateEngine {
  /** Reports what the upstream lists now; answers how each tool stands for this caller. */
  reportTools(tools: readonly unknown[], signal?: AbortSignal): Promise<ToolReport>;
  pre(request: PreCallRequest, traceparent: string | null): Promise<ValidationResponse>;
  post(request: PostCallRequest, traceparent: string | null): Promise<ValidationResponse>;
  /**
   * validate/post with its body as JSON text: for a result holding numbers a double cannot hold,
   * which no JavaScript object carries exactly (validate/post refuses and records it as sent).
   */
  postText(body: string, traceparent: string | null): Promise<ValidationResponse>;
  /** The approval once decided or expired, or still pending after `waitMs`. */
  waitForApproval(id: string, waitMs: number, signal?: AbortSignal): Promise<Approval>;
}
