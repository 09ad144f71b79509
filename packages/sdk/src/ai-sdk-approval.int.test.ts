import { generateText, stepCountIs, tool, type ModelMessage, type ToolApprovalRequestOutput } from 'ai';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { db } from '@/lib/db';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import type { FetchLike } from '@toolgate/sdk';
import { withToolgate, type ToolgateTools } from '@toolgate/sdk/ai-sdk';
import { callTool, clientFor, evidenceTrace, inProcessFetch, say, scriptedModel, type Prompt } from './testing/ai-sdk-harness.ts';

/**
 * Toolgate's require_approval as the AI SDK's tool approval, in real generateText loops against
 * the real route handlers: the run pauses with a tool-approval-request that names Toolgate's
 * approval, the human decides in Toolgate, the app answers the request and resumes.
 */

const payoutInput = z.object({ partner: z.string(), amount_cents: z.number().int() });
const payoutExecute = vi.fn(async (input: z.infer<typeof payoutInput>) => ({ payout_id: `po_${input.partner}_${input.amount_cents}` }));
const tools = { payout: tool({ description: 'Pays a partner.', inputSchema: payoutInput, execute: payoutExecute }) };
const contracts = { payout: 'ai.payout' };
const context = { user_id: 'u-1' };
// Each test pays another partner: Toolgate refuses a repeat of a call an approver just denied.
const argsOf = (callId: string) => ({ partner: callId, amount_cents: 12_000 });

let t: Awaited<ReturnType<typeof createTestTenant>>;
const gateFor = (options: { approvalWaitMs?: number; fetch?: FetchLike } = {}) =>
  withToolgate(tools, { client: clientFor(t.agentKey, options.fetch), contracts, context, approvalWaitMs: options.approvalWaitMs });

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, {
    id: 'ai.payout',
    version: '1.0.0',
    description: 'Pays a partner.',
    owner: 'team-payments',
    input: {
      type: 'object',
      required: ['partner', 'amount_cents'],
      additionalProperties: false,
      properties: { partner: { type: 'string' }, amount_cents: { type: 'integer', minimum: 1 } },
    },
    output: { type: 'object', required: ['payout_id'], properties: { payout_id: { type: 'string' } } },
    annotations: {
      kind: 'mutation',
      side_effect_level: 'external',
      idempotent: false,
      confirmation_required: false,
      approval_required: true,
      approver_roles: ['approver'],
    },
  });
});

beforeEach(() => {
  payoutExecute.mockClear();
});

const lastUserText = (prompt: Prompt) => {
  const last = prompt.at(-1);
  return last?.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : undefined;
};

/** Calls payout once as `first`; after a user's "try again", once more as `retry`; otherwise says what it read. */
function payoutModel(first: string, retry?: string) {
  return scriptedModel((outputs, prompt) => {
    if (!outputs.has(first)) return callTool(first, 'payout', argsOf(first));
    if (retry && lastUserText(prompt) === 'try again') return callTool(retry, 'payout', argsOf(first));
    return say(JSON.stringify(outputs.get(retry ?? first) ?? outputs.get(first)));
  });
}

async function decide(approvalId: string, decision: 'approve' | 'deny', comment?: string, edited?: Record<string, unknown>) {
  const response = await inProcessFetch(`http://toolgate.test/api/v1/approvals/${approvalId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision, comment, arguments: edited }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

type Model = ReturnType<typeof payoutModel>['model'];
const run = (model: Model, gate: ToolgateTools<typeof tools>, messages: ModelMessage[], withToolApproval = true) =>
  generateText({
    model,
    tools: gate.tools,
    toolApproval: withToolApproval ? gate.toolApproval : undefined,
    messages,
    stopWhen: stepCountIs(4),
  });

/** Runs until the AI SDK pauses for approval; returns the request and the conversation so far. */
async function pause(model: Model, gate: ToolgateTools<typeof tools>, withToolApproval = true) {
  const user: ModelMessage = { role: 'user', content: 'pay the partner 120.00' };
  const first = await run(model, gate, [user], withToolApproval);
  const request = first.content.find((part): part is ToolApprovalRequestOutput<typeof tools> => part.type === 'tool-approval-request');
  expect(request).toBeDefined();
  expect(payoutExecute).not.toHaveBeenCalled();
  const approval = await db().approval.findFirstOrThrow({ where: { tenantId: t.tenant.id, callId: request!.toolCall.toolCallId } });
  return { request: request!, approval, messages: [user, ...first.responseMessages] };
}

const answer = (request: ToolApprovalRequestOutput<typeof tools>, approved: boolean): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }],
});

describe('Toolgate approvals through the AI SDK tool approval', () => {
  it("pauses with a request naming Toolgate's approval, and runs the call once after Toolgate approves it", async () => {
    const { model, prompts } = payoutModel('call-hold');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate);
    expect(approval.status).toBe('pending');
    expect(request.reason).toMatch(new RegExp(`^Toolgate approval ${approval.id}: `));
    expect(gate.approvalFor(request)).toEqual({ id: approval.id, poll_url: `/api/v1/approvals/${approval.id}` });

    await decide(approval.id, 'approve');
    // Another server instance resumes: only the messages carry the approval id.
    const second = await run(model, gateFor(), [...messages, answer(request, true)]);

    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(payoutExecute.mock.calls[0]?.[0]).toEqual(argsOf('call-hold'));
    expect(second.text).toBe(JSON.stringify({ type: 'json', value: { payout_id: 'po_call-hold_12000' } }));
    expect(prompts).toHaveLength(2);
    expect(await evidenceTrace(t.tenant.id, 'call-hold')).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      'post:allow',
    ]);
    expect((await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).tokenUsedAt).not.toBeNull();

    // The same resume sent again (a replayed request) does not run the call twice.
    const replay = await run(model, gateFor(), [...messages, answer(request, true)]);
    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(JSON.parse(replay.text)).toEqual({
      type: 'error-text',
      value: 'The approval for this call to ai.payout was already used; the call did not run again. Do not repeat it.',
    });
  });

  it('runs the arguments an approver edited in Toolgate', async () => {
    const { model } = payoutModel('call-edited');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate);
    await decide(approval.id, 'approve', 'a smaller amount', { partner: 'call-edited', amount_cents: 9_000 });
    await run(model, gate, [...messages, answer(request, true)]);

    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(payoutExecute.mock.calls[0]?.[0]).toEqual({ partner: 'call-edited', amount_cents: 9_000 });
    expect(await evidenceTrace(t.tenant.id, 'call-edited')).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      'post:allow',
    ]);
  });

  it("does not run on the AI SDK's approval alone; once Toolgate approves, the same call runs", async () => {
    const { model } = payoutModel('call-early', 'call-early-again');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate);
    const second = await run(model, gate, [...messages, answer(request, true)]);

    expect(payoutExecute).not.toHaveBeenCalled();
    expect(JSON.parse(second.text)).toEqual({
      type: 'error-text',
      value: `The call to ai.payout is still waiting for Toolgate approval ${approval.id}; it did not run. Tell the user it awaits an approver's decision and do not repeat it meanwhile.`,
    });
    expect((await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe('pending');

    // Approved later in Toolgate; the model repeats the call with a new tool call id, which
    // redeems the approval of exactly this call.
    await decide(approval.id, 'approve');
    const history = [...messages, answer(request, true), ...second.responseMessages, { role: 'user' as const, content: 'try again' }];
    await run(model, gate, history);
    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(await evidenceTrace(t.tenant.id, 'call-early-again')).toEqual(['pre:allow', 'post:allow']);
    expect((await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).tokenUsedAt).not.toBeNull();
  });

  it("hands the model an approver's denial in Toolgate, with the comment; the tool does not run", async () => {
    const { model } = payoutModel('call-denied');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate);
    await decide(approval.id, 'deny', 'not this partner');
    const second = await run(model, gate, [...messages, answer(request, true)]);

    expect(payoutExecute).not.toHaveBeenCalled();
    expect(JSON.parse(second.text)).toEqual({
      type: 'error-text',
      value:
        'An approver denied this call to ai.payout ("not this partner"); it did not run. Do not retry; tell the user the call was denied.',
    });
    expect(await evidenceTrace(t.tenant.id, 'call-denied')).toEqual(['pre:require_approval', 'approval_decision:denied']);
  });

  it("stops the call on the AI SDK's denial and leaves Toolgate's approval pending", async () => {
    const { model } = payoutModel('call-sdk-denied');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate);
    const second = await run(model, gate, [...messages, answer(request, false)]);

    expect(payoutExecute).not.toHaveBeenCalled();
    expect(JSON.parse(second.text)).toMatchObject({ type: 'execution-denied' });
    expect((await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe('pending');
    expect(await evidenceTrace(t.tenant.id, 'call-sdk-denied')).toEqual(['pre:require_approval']);
  });

  it('pauses through the tools alone (needsApproval) when the call sets no toolApproval', async () => {
    const { model } = payoutModel('call-needs');
    const gate = gateFor();
    const { request, approval, messages } = await pause(model, gate, false);
    expect(request.reason).toBeUndefined();
    // Without a reason, the gate that paused the run remembers the approval.
    expect(gate.approvalFor(request)?.id).toBe(approval.id);

    await decide(approval.id, 'approve');
    await run(model, gate, [...messages, answer(request, true)], false);
    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(await evidenceTrace(t.tenant.id, 'call-needs')).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      'post:allow',
    ]);
  });

  it("waits up to approvalWaitMs on resume for Toolgate's decision", async () => {
    // The server holds the long poll open; the approver decides once the adapter is waiting in it.
    const polls: string[] = [];
    let polled!: () => void;
    const firstPoll = new Promise<void>((resolve) => (polled = resolve));
    const watching: FetchLike = async (url, init) => {
      const { pathname, search } = new URL(url);
      if ((init.method ?? 'GET') === 'GET' && pathname.startsWith('/api/v1/approvals/')) {
        polls.push(`${pathname}${search}`);
        polled();
      }
      return inProcessFetch(url, init);
    };
    const { model } = payoutModel('call-wait');
    const gate = gateFor({ approvalWaitMs: 20_000, fetch: watching });
    const { request, approval, messages } = await pause(model, gate);

    const resuming = run(model, gate, [...messages, answer(request, true)]);
    await firstPoll;
    expect(payoutExecute).not.toHaveBeenCalled();
    await decide(approval.id, 'approve');
    await resuming;
    expect(polls[0]).toBe(`/api/v1/approvals/${approval.id}?wait=20`);
    expect(payoutExecute).toHaveBeenCalledOnce();
    expect(await evidenceTrace(t.tenant.id, 'call-wait')).toEqual([
      'pre:require_approval',
      'approval_decision:approved',
      'pre:allow',
      'post:allow',
    ]);
  });
});
