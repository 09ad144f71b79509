import type { ToolgateClient } from '@toolgate/sdk';
import { log } from '../../log';
import { readUpstreamTool } from '../tool-definition';
import type { GateEngine } from './gate-engine';

/**
 * The engine of the stdio proxy: Toolgate's HTTP API, called with the agent's API key. The
 * proxy holds no secret but that key, and decides nothing itself.
 */
export function createHttpEngine(options: { client: ToolgateClient; server: string }): GateEngine {
  const { client, server } = options;
  return {
    // Only what Toolgate pins is sent (no icons, _meta or unknown keys), so that a large server's
    // list fits in one request body (TOOLGATE_MAX_BODY_BYTES). An entry Toolgate cannot use is
    // logged here with its reason and sent as its name only, which Toolgate reports as unusable.
    reportTools: (tools, signal) =>
      client.reportMcpTools(
        server,
        tools.map((entry) => {
          const read = readUpstreamTool(entry);
          if ('definition' in read) return read.definition;
          log.warn('mcp upstream tool not used', { server, problem: read.problem });
          const name = (entry as { name?: unknown } | null)?.name;
          return { name: typeof name === 'string' ? name.slice(0, 128) : null };
        }),
        { signal },
      ),
    pre: (request, traceparent) => client.validatePre(request, traceparent ? { traceparent } : undefined),
    post: (request, traceparent) => client.validatePost(request, traceparent ? { traceparent } : undefined),
    waitForApproval: (id, waitMs, signal) => client.waitForApproval(id, { timeoutMs: waitMs, signal }),
  };
}
