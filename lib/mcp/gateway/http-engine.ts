import type { ToolgateClient } from '@toolgate/sdk';
import type { ValidationResponse } from '@toolgate/sdk/core';
import { log } from '../../log';
import { MAX_UPSTREAM_TOOLS, readUpstreamTool } from '../tool-definition';
import { CallRefusedError, type GateEngine } from './gate-engine';

/** How long validate/post of a result given as text may take (the SDK client's own default timeout). */
const POST_TEXT_TIMEOUT_MS = 30_000;

/**
 * The engine of the stdio proxy: Toolgate's HTTP API, called with the agent's API key. The
 * proxy holds no secret but that key, and decides nothing itself.
 */
export function createHttpEngine(options: { client: ToolgateClient; apiKey: string; server: string; fetch?: typeof fetch }): GateEngine {
  const { client, server } = options;
  const doFetch = options.fetch ?? fetch;
  return {
    // Only what Toolgate pins is sent (no icons, _meta or unknown keys), so that a large server's
    // list fits in one request body (TOOLGATE_MAX_BODY_BYTES). An entry Toolgate cannot use is
    // logged here with its reason and sent as its name only, which Toolgate reports as unusable.
    reportTools: (listed, signal) => {
      // Only the first MAX_UPSTREAM_TOOLS are used (docs/mcp-gateway.md): sending a larger list
      // whole was refused as a body (over 1,000 entries) and took every tool down with it.
      if (listed.length > MAX_UPSTREAM_TOOLS)
        log.warn('mcp upstream lists more tools than are used', { server, listed: listed.length, used: MAX_UPSTREAM_TOOLS });
      const tools = listed.slice(0, MAX_UPSTREAM_TOOLS);
      return client.reportMcpTools(
        server,
        tools.map((entry) => {
          const read = readUpstreamTool(entry);
          if ('definition' in read) return read.definition;
          log.warn('mcp upstream tool not used', { server, problem: read.problem });
          const name = (entry as { name?: unknown } | null)?.name;
          return { name: typeof name === 'string' ? name.slice(0, 128) : null };
        }),
        { signal },
      );
    },
    pre: (request, traceparent) =>
      client.validatePre(request, traceparent ? { traceparent } : undefined).catch((error: unknown) => {
        // A 400 says the request itself is wrong (its context or arguments): retrying cannot help.
        const status = (error as { status?: unknown } | null)?.status;
        if (status === 400 || status === 413 || status === 422) throw new CallRefusedError((error as Error).message);
        throw error;
      }),
    post: (request, traceparent) => client.validatePost(request, traceparent ? { traceparent } : undefined),
    // The SDK client sends objects (JSON.stringify, which cannot write such a number as sent): the text goes as it is.
    postText: async (body, traceparent) => {
      const response = await doFetch(`${client.baseUrl}/api/v1/validate/post`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
          ...(traceparent ? { traceparent } : {}),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(POST_TEXT_TIMEOUT_MS),
      });
      const answer = (await response.json().catch(() => null)) as (ValidationResponse & { error?: { message?: unknown } }) | null;
      if (!response.ok || answer === null || typeof answer !== 'object' || typeof answer.decision !== 'string') {
        const message = typeof answer?.error?.message === 'string' ? `: ${answer.error.message.slice(0, 200)}` : '';
        throw new Error(`POST /api/v1/validate/post answered ${response.status}${message}`);
      }
      return answer;
    },
    waitForApproval: (id, waitMs, signal) => client.waitForApproval(id, { timeoutMs: waitMs, signal }),
  };
}
