import { expect, vi } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Usage,
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type RunContext,
  type StreamEvent,
} from '@openai/agents';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { db } from '@/lib/db';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createToolgateClient, zodToContract, type FetchLike, type ToolgateClient } from '../index.ts';
import { toolgateTool } from '../openai-agents.ts';

/**
 * What the OpenAI Agents adapter tests share: a scripted model for the framework's Runner (no
 * network), a tenant with three published contracts and a transforming policy, the agent whose
 * tools Toolgate checks, and readers for the evidence and the requests the tools sent.
 */

/** One model turn: what to answer, given the output of the last tool call (if any). */
export type Turn = (lastToolOutput: string | undefined) => AgentOutputItem[];

function lastToolOutput(input: string | AgentInputItem[]): string | undefined {
  if (typeof input === 'string') return undefined;
  const last = input.filter((item) => item.type === 'function_call_result').at(-1);
  if (!last) return undefined;
  const { output } = last;
  return typeof output === 'string' ? output : 'text' in output ? output.text : JSON.stringify(output);
}

/** Answers each turn from the script, reading the tool output it was given as a model would. */
export class ScriptedModel implements Model {
  readonly seen: (string | undefined)[] = [];
  constructor(private readonly turns: Turn[]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.turns[this.seen.length];
    if (!turn) throw new Error(`the script has no turn ${this.seen.length + 1}`);
    const output = lastToolOutput(request.input);
    this.seen.push(output);
    return { usage: new Usage(), output: turn(output) };
  }
  // The runner streams only when asked to; these tests never do.
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('ScriptedModel does not stream');
  }
}

export const callTool = (callId: string, name: string, args: Record<string, unknown>): AgentOutputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

export const say = (text: string): AgentOutputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

const sent: { path: string; body: Record<string, unknown> }[] = [];
export const inProcessFetch: FetchLike = async (url, init) => {
  if (typeof init.body === 'string') sent.push({ path: new URL(url).pathname, body: JSON.parse(init.body) });
  return nextRoutes[(init.method ?? 'GET') as keyof typeof nextRoutes](new Request(url, init));
};
/** The bodies the tools sent to `path` for one call. */
export const sentFor = (path: string, callId: string) =>
  sent.filter((s) => s.path === path && s.body.call_id === callId).map((s) => s.body);

export const clientFor = (apiKey: string, fetch: FetchLike = inProcessFetch): ToolgateClient =>
  createToolgateClient({ baseUrl: 'http://toolgate.test', apiKey, fetch, approvalPollIntervalMs: 20, maxAttempts: 1 });

const refundInput = z.object({
  payment_id: z.string().regex(/^pay_[A-Za-z0-9]{8,32}$/),
  amount_cents: z.number().int().min(1).max(1_000_000),
});
const refundOutput = z.object({ refund_id: z.string(), amount_cents: z.number().int() });
const payoutInput = z.object({ partner: z.string().min(1), amount_cents: z.number().int().min(1) });
const searchInput = z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(100) });

export const executes = {
  refund: vi.fn(async (input: z.output<typeof refundInput>) => ({
    refund_id: `re_${input.payment_id.slice(4)}`,
    amount_cents: input.amount_cents,
  })),
  payout: vi.fn(async (input: z.output<typeof payoutInput>) => ({ payout_id: `po_${input.partner}_${input.amount_cents}` })),
  search: vi.fn(async (input: z.output<typeof searchInput>) => ({ hits: input.limit })),
};

/** The caller the tools report: from the run's context (`{ userId }`) when it has one. */
export const contextOf = (runContext: RunContext<{ userId?: string }> | undefined) => ({
  user_id: runContext?.context?.userId ?? 'u-1',
  roles: ['support'],
});

export async function setUpTenant() {
  const t = await createTestTenant();
  const common = { version: '1.0.0', owner: 'team-payments', idempotent: false } as const;
  const refund = {
    id: 'small_refund',
    expression: 'args.amount_cents <= 10000',
    message: 'refunds above 100.00 need a human',
    suggestion: 'Refund at most 10000 cents, or hand over to a human.',
  };
  const notMore = {
    id: 'not_more_than_asked',
    expression: 'result.amount_cents <= args.amount_cents',
    message: 'the refund must not exceed the requested amount',
  };
  await publishContract(
    t.tenant.id,
    zodToContract({
      ...common,
      id: 'agents.refund',
      description: 'Refunds a payment.',
      kind: 'mutation',
      side_effect_level: 'external',
      input: refundInput,
      output: refundOutput,
      preconditions: [refund],
      postconditions: [notMore],
    }),
  );
  await publishContract(
    t.tenant.id,
    zodToContract({
      ...common,
      id: 'agents.payout',
      description: 'Pays a partner.',
      kind: 'mutation',
      side_effect_level: 'external',
      approval_required: true,
      approver_roles: ['approver'],
      input: payoutInput,
    }),
  );
  await publishContract(
    t.tenant.id,
    zodToContract({
      ...common,
      id: 'agents.search',
      description: 'Searches orders.',
      kind: 'search',
      side_effect_level: 'read_only',
      idempotent: true,
      input: searchInput,
    }),
  );

  const asAdmin = async (path: string, body: unknown) => {
    const response = await inProcessFetch(`http://toolgate.test${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  };
  // A policy that caps what agents may ask of the search (Toolgate answers transform) and
  // escalates one odd refund amount to an admin (escalate).
  await asAdmin('/api/v1/policies', {
    id: 'agents',
    version: '1.0.0',
    rules: [
      {
        id: 'cap-search',
        tools: ['agents.search'],
        decision: 'transform',
        set: { limit: 10 },
        reason: 'agents page through ten at a time',
      },
      {
        id: 'odd-refund',
        tools: ['agents.refund'],
        when: 'args.amount_cents == 9999',
        decision: 'escalate',
        roles: ['admin'],
        reason: 'odd amounts need an admin',
      },
    ],
  });
  await asAdmin('/api/v1/policies/agents/versions/1.0.0/publish', { mode: 'enforce' });

  const agentClient = clientFor(t.agentKey);
  return {
    t,
    agentClient,
    /** The agent under test: three tools, each checked against its contract. */
    agentWith(model: Model, client = agentClient) {
      const options = { client, context: contextOf };
      return new Agent<{ userId?: string }>({
        name: 'payments-assistant',
        instructions: 'Help with payments.',
        model,
        tools: [
          toolgateTool(
            {
              name: 'refund_payment',
              description: 'Refunds a payment.',
              parameters: refundInput,
              execute: (input) => executes.refund(input),
            },
            { ...options, contract: 'agents.refund' },
          ),
          toolgateTool(
            { name: 'send_payout', description: 'Pays a partner.', parameters: payoutInput, execute: (input) => executes.payout(input) },
            { ...options, contract: 'agents.payout' },
          ),
          toolgateTool(
            { name: 'search_orders', description: 'Searches orders.', parameters: searchInput, execute: (input) => executes.search(input) },
            { ...options, contract: 'agents.search' },
          ),
        ],
      });
    },
    /** `kind:decision` of each evidence record of the call, in chain order. */
    async trail(callId: string) {
      const rows = await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id }, callId }, orderBy: { seq: 'asc' } });
      return rows.map((row) => `${row.kind}:${row.decision}`);
    },
    /** A person's decision on an approval, through Toolgate's API. */
    decide: (approvalId: string, body: Record<string, unknown>) => asAdmin(`/api/v1/approvals/${approvalId}/decision`, body),
  };
}
