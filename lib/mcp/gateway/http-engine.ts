import type { ToolgateClient } from '../../sdk/create-toolgate-client';
import type { GateEngine } from './gate-engine';

/**
 * The engine of the stdio proxy: Toolgate's HTTP API, called with the agent's API key. The
 * proxy holds no secret but that key, and decides nothing itself.
 */
export function createHttpEngine(options: { client: ToolgateClient; server: string }): GateEngine {
  const { client, server } = options;
  return {
    reportTools: (tools, signal) => client.reportMcpTools(server, tools, { signal }),
    pre: (request, traceparent) => client.validatePre(request, traceparent ? { traceparent } : undefined),
    post: (request, traceparent) => client.validatePost(request, traceparent ? { traceparent } : undefined),
    waitForApproval: (id, waitMs, signal) => client.waitForApproval(id, { timeoutMs: waitMs, signal }),
  };
}
