import { MockLanguageModelV4 } from 'ai/test';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { db } from '@/lib/db';
import { createToolgateClient, type FetchLike, type ToolgateClient } from '../index.ts';

/**
 * For the AI SDK adapter's tests: a Toolgate client that reaches the real route handlers in
 * process, and the AI SDK's own mock language model scripted to read what the tools answered.
 */

export const inProcessFetch: FetchLike = async (url, init) =>
  nextRoutes[(init.method ?? 'GET') as keyof typeof nextRoutes](new Request(url, init));

/** One attempt per request, so a Toolgate that is down fails at once; approvals polled every 20 ms. */
export const clientFor = (apiKey: string, fetch: FetchLike = inProcessFetch): ToolgateClient =>
  createToolgateClient({ baseUrl: 'http://toolgate.test', apiKey, fetch, maxAttempts: 1, approvalPollIntervalMs: 20 });

export type Prompt = Parameters<MockLanguageModelV4['doGenerate']>[0]['prompt'];
export type ToolOutput = { type: string; value?: unknown; reason?: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export const callTool = (toolCallId: string, toolName: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});

export const say = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});

/** What the model was shown as the output of each tool call so far, by tool call id. */
export function toolOutputs(prompt: Prompt): Map<string, ToolOutput> {
  const outputs = new Map<string, ToolOutput>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') outputs.set(part.toolCallId, part.output as ToolOutput);
  }
  return outputs;
}

/** A model that answers each step as `next` decides from the tool outputs it has read so far (and the prompt). */
export function scriptedModel(next: (outputs: Map<string, ToolOutput>, prompt: Prompt) => ReturnType<typeof say | typeof callTool>) {
  const prompts: Prompt[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      return next(toolOutputs(prompt), prompt);
    },
  });
  return { model, prompts };
}

/** The evidence of one tool call, in order, as `kind:decision`. */
export async function evidenceTrace(tenantId: string, callId: string): Promise<string[]> {
  const rows = await db().evidence.findMany({ where: { tenant: { tenantId }, callId }, orderBy: { seq: 'asc' } });
  return rows.map((e) => `${e.kind}:${e.decision}`);
}
