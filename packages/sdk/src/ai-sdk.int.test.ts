import { generateText, stepCountIs, tool } from 'ai';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { db } from '@/lib/db';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import type { FetchLike, ToolgateClient } from '@toolgate/sdk';
import { ToolgateToolError, withToolgate } from '@toolgate/sdk/ai-sdk';
import { callTool, clientFor, evidenceTrace, inProcessFetch, say, scriptedModel, toolOutputs } from './testing/ai-sdk-harness.ts';

/**
 * The AI SDK adapter driving real generateText loops (the AI SDK's own mock language model,
 * scripted to read what the tools answered) against Toolgate's real route handlers and database.
 * The approval cases are in ai-sdk-approval.int.test.ts.
 */

const refundInput = z.object({ payment_id: z.string(), amount_cents: z.number().int() });
const refundExecute = vi.fn(async (input: z.infer<typeof refundInput>) => ({
  refund_id: `re_${input.payment_id}`,
  amount_cents: input.amount_cents,
}));
const lookupInput = z.object({ order_id: z.string(), include: z.array(z.enum(['items', 'payments'])).optional() });
const lookupExecute = vi.fn(async (input: z.infer<typeof lookupInput>) => ({ order_id: input.order_id, shown: input.include ?? [] }));
const tools = {
  refund: tool({ description: 'Refunds a payment.', inputSchema: refundInput, execute: refundExecute }),
  lookup: tool({ description: 'Looks an order up.', inputSchema: lookupInput, execute: lookupExecute }),
};
const contracts = { refund: 'ai.refund', lookup: 'ai.lookup' };
const context = { user_id: 'u-1' };

const noGates = { confirmation_required: false, approval_required: false, approver_roles: [] };

let t: Awaited<ReturnType<typeof createTestTenant>>;
let agent: ToolgateClient;

beforeAll(async () => {
  t = await createTestTenant();
  agent = clientFor(t.agentKey);
  await publishContract(t.tenant.id, {
    id: 'ai.refund',
    version: '1.0.0',
    description: 'Refunds part or all of a payment.',
    owner: 'team-payments',
    input: {
      type: 'object',
      required: ['payment_id', 'amount_cents'],
      additionalProperties: false,
      properties: { payment_id: { type: 'string', pattern: '^pay_[a-z0-9]{4,32}$' }, amount_cents: { type: 'integer', minimum: 1 } },
    },
    output: {
      type: 'object',
      required: ['refund_id', 'amount_cents'],
      properties: { refund_id: { type: 'string' }, amount_cents: { type: 'integer' } },
    },
    annotations: { ...noGates, kind: 'mutation', side_effect_level: 'external', idempotent: false },
    preconditions: [
      {
        id: 'small_refund',
        expression: 'args.amount_cents <= 10000',
        message: 'refunds above 100.00 need a human',
        suggestion: 'Refund at most 10000 cents, or hand over to a human.',
      },
    ],
    postconditions: [
      {
        id: 'not_more_than_asked',
        expression: 'result.amount_cents <= args.amount_cents',
        message: 'the refund must not exceed the request',
      },
    ],
  });
  await publishContract(t.tenant.id, {
    id: 'ai.lookup',
    version: '1.0.0',
    description: 'Looks an order up.',
    owner: 'team-orders',
    input: {
      type: 'object',
      required: ['order_id'],
      additionalProperties: false,
      properties: { order_id: { type: 'string' }, include: { type: 'array', items: { enum: ['items', 'payments'] } } },
    },
    output: { type: 'object' },
    annotations: { ...noGates, kind: 'query', side_effect_level: 'read_only', idempotent: true },
  });
  await publishContract(t.tenant.id, {
    id: 'ai.ship',
    version: '1.0.0',
    description: 'Ships an order.',
    owner: 'team-orders',
    input: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } },
    output: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
    annotations: { ...noGates, kind: 'mutation', side_effect_level: 'external', idempotent: true },
    side_effects: [{ id: 'label_printed', description: 'A shipping label is printed.', required: true }],
  });
  await publishPolicy({
    id: 'ai-orders',
    version: '1.0.0',
    rules: [{ id: 'items-only', tools: ['ai.lookup'], decision: 'transform', set: { include: ['items'] } }],
  });
});

async function publishPolicy(policy: { id: string; version: string; rules: unknown[] }) {
  const admin = { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' };
  const saved = await inProcessFetch('http://toolgate.test/api/v1/policies', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify(policy),
  });
  expect(saved.status, await saved.clone().text()).toBeLessThan(300);
  const published = await inProcessFetch(`http://toolgate.test/api/v1/policies/${policy.id}/versions/${policy.version}/publish`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ mode: 'enforce' }),
  });
  expect(published.status, await published.clone().text()).toBe(200);
}

beforeEach(() => {
  refundExecute.mockClear();
  lookupExecute.mockClear();
});

const trace = (callId: string) => evidenceTrace(t.tenant.id, callId);

describe('withToolgate in a generateText loop', () => {
  it('runs an allowed call once, under the AI SDK tool call id, with pre and post evidence', async () => {
    const { model, prompts } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-allow', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 500 }) : say('refunded'),
    );
    const gate = withToolgate(tools, { client: agent, contracts, context });
    const result = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      prompt: 'refund 5',
      stopWhen: stepCountIs(5),
    });

    expect(result.text).toBe('refunded');
    expect(refundExecute).toHaveBeenCalledOnce();
    expect(refundExecute.mock.calls[0]?.[0]).toEqual({ payment_id: 'pay_abcd1234', amount_cents: 500 });
    expect(toolOutputs(prompts[1]!).get('call-allow')).toEqual({
      type: 'json',
      value: { refund_id: 're_pay_abcd1234', amount_cents: 500 },
    });
    const rows = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, callId: 'call-allow' },
      orderBy: { seq: 'asc' },
    });
    expect(rows.map((e) => `${e.kind}:${e.decision}:${e.tool}`)).toEqual(['pre:allow:ai.refund', 'post:allow:ai.refund']);
    expect(rows[1]?.traceId).toBe(rows[0]?.traceId);
  });

  it("hands the model Toolgate's llm_message as the tool's error, and runs the call the model corrects", async () => {
    const { model, prompts } = scriptedModel((outputs) => {
      const refused = outputs.get('call-deny-1');
      if (!refused) return callTool('call-deny-1', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 50_000 });
      // The model reads the suggestion in the error and follows it.
      if (!outputs.has('call-deny-2') && String(refused.value).includes('Refund at most 10000 cents'))
        return callTool('call-deny-2', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 10_000 });
      return say('done');
    });
    const gate = withToolgate(tools, { client: agent, contracts, context });
    const result = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      prompt: 'refund 500',
      stopWhen: stepCountIs(5),
    });

    const error = result.steps[0]?.content.find((part) => part.type === 'tool-error')?.error;
    expect(error).toBeInstanceOf(ToolgateToolError);
    const llmMessage = (error as ToolgateToolError).response?.llm_message;
    expect(llmMessage).toContain('AXAG_PRECONDITION_FAILED');
    // What the model read is the llm_message itself, nothing added.
    expect(toolOutputs(prompts[1]!).get('call-deny-1')).toEqual({ type: 'error-text', value: llmMessage });
    // The conversation the app keeps says the same.
    const kept = result.responseMessages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(kept.find((p) => p.type === 'tool-result' && p.toolCallId === 'call-deny-1')).toMatchObject({
      output: { type: 'error-text', value: llmMessage },
    });
    expect(refundExecute).toHaveBeenCalledOnce();
    expect(refundExecute.mock.calls[0]?.[0]).toEqual({ payment_id: 'pay_abcd1234', amount_cents: 10_000 });
    expect(result.text).toBe('done');
    expect(await trace('call-deny-1')).toEqual(['pre:deny']);
    expect(await trace('call-deny-2')).toEqual(['pre:allow', 'post:allow']);
    const violations = await db().violation.findMany({ where: { tenantId: t.tenant.id, evidence: { callId: 'call-deny-1' } } });
    expect(violations.map((v) => v.code)).toEqual(['AXAG_PRECONDITION_FAILED']);
  });

  it("runs a policy's transform with the transformed arguments", async () => {
    const { model } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-transform', 'lookup', { order_id: 'ord_1', include: ['payments'] }) : say('ok'),
    );
    const gate = withToolgate(tools, { client: agent, contracts, context });
    const result = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      prompt: 'order 1',
      stopWhen: stepCountIs(3),
    });

    expect(lookupExecute).toHaveBeenCalledOnce();
    expect(lookupExecute.mock.calls[0]?.[0]).toEqual({ order_id: 'ord_1', include: ['items'] });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ order_id: 'ord_1', shown: ['items'] });
    expect(await trace('call-transform')).toEqual(['pre:transform', 'post:allow']);
  });

  it("parses arguments Toolgate changed with the tool's own schema, and does not run a tool whose schema refuses them", async () => {
    // The AI SDK parsed the model's arguments with inputSchema; a transform's never went through it.
    await publishContract(t.tenant.id, {
      id: 'ai.tag',
      version: '1.0.0',
      description: 'Tags an order.',
      owner: 'team-orders',
      input: {
        type: 'object',
        required: ['order_id', 'priority'],
        additionalProperties: false,
        properties: { order_id: { type: 'string' }, priority: { type: 'string' } },
      },
      output: { type: 'object' },
      annotations: { ...noGates, kind: 'mutation', side_effect_level: 'write', idempotent: true },
    });
    await publishPolicy({
      id: 'ai-tags',
      version: '1.0.0',
      rules: [{ id: 'high', tools: ['ai.tag'], decision: 'transform', set: { priority: 'high' } }],
    });
    const shouting = vi.fn(async (input: { order_id: string; priority: string }) => input);
    const lowOnly = vi.fn(async (input: unknown) => input);
    const ownTools = {
      shouting: tool({
        inputSchema: z.object({ order_id: z.string(), priority: z.string().transform((p) => p.toUpperCase()) }),
        execute: shouting,
      }),
      lowOnly: tool({ inputSchema: z.object({ order_id: z.string(), priority: z.enum(['low', 'LOW']) }), execute: lowOnly }),
    };
    const { model, prompts } = scriptedModel((outputs) =>
      outputs.size === 0
        ? callTool('call-own-parse', 'shouting', { order_id: 'ord_2', priority: 'low' })
        : outputs.size === 1
          ? callTool('call-own-refuse', 'lowOnly', { order_id: 'ord_3', priority: 'low' })
          : say('ok'),
    );
    const gate = withToolgate(ownTools, { client: agent, contracts: { shouting: 'ai.tag', lowOnly: 'ai.tag' }, context });
    const result = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      prompt: 'tag',
      stopWhen: stepCountIs(4),
    });

    expect(shouting.mock.calls.map((c) => c[0])).toEqual([{ order_id: 'ord_2', priority: 'HIGH' }]);
    expect(await trace('call-own-parse')).toEqual(['pre:transform', 'post:allow']);
    expect(lowOnly).not.toHaveBeenCalled();
    const error = result.steps[1]?.content.find((part) => part.type === 'tool-error')?.error;
    expect(error).toBeInstanceOf(ToolgateToolError);
    expect(error).toMatchObject({ code: 'refused', contractId: 'ai.tag', response: { decision: 'transform' } });
    expect(toolOutputs(prompts[2]!).get('call-own-refuse')).toEqual({
      type: 'error-text',
      value: expect.stringContaining("that the tool's own schema does not accept, so it did not run"),
    });
    expect(await trace('call-own-refuse')).toEqual(['pre:transform']);
  });

  it('withholds a result validate/post refuses, with its llm_message', async () => {
    refundExecute.mockImplementationOnce(async (input) => ({ refund_id: 're_x', amount_cents: input.amount_cents * 2 }));
    const { model, prompts } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-post', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 700 }) : say('hm'),
    );
    const gate = withToolgate(tools, { client: agent, contracts, context });
    const result = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      prompt: 'refund 7',
      stopWhen: stepCountIs(3),
    });

    expect(refundExecute).toHaveBeenCalledOnce();
    const error = result.steps[0]?.content.find((part) => part.type === 'tool-error')?.error as ToolgateToolError;
    expect(error).toMatchObject({
      code: 'result_withheld',
      response: { decision: 'deny', errors: [{ code: 'AXAG_POSTCONDITION_FAILED' }] },
    });
    expect(error.response?.llm_message).toMatch(/^The result of ai.refund was refused/);
    expect(toolOutputs(prompts[1]!).get('call-post')).toEqual({ type: 'error-text', value: error.response?.llm_message });
    expect(await trace('call-post')).toEqual(['pre:allow', 'post:deny']);
  });

  it('reports the side effects the developer maps from a result; without them a required one fails validate/post', async () => {
    const ship = { ship: tool({ inputSchema: z.object({ order_id: z.string() }), execute: async () => ({ label: 'L-1' }) }) };
    const shipModel = (callId: string) =>
      scriptedModel((outputs) => (outputs.size === 0 ? callTool(callId, 'ship', { order_id: 'ord_1' }) : say('shipped'))).model;
    const unreported = withToolgate(ship, { client: agent, contracts: { ship: 'ai.ship' }, context });
    const withheld = await generateText({
      model: shipModel('call-ship-1'),
      tools: unreported.tools,
      prompt: 'ship',
      stopWhen: stepCountIs(3),
    });
    const error = withheld.steps[0]?.content.find((part) => part.type === 'tool-error')?.error as ToolgateToolError;
    expect(error.response?.errors.map((e) => e.code)).toEqual(['AXAG_SIDE_EFFECT_MISSING']);

    const reported = withToolgate(ship, {
      client: agent,
      contracts: { ship: 'ai.ship' },
      context,
      sideEffects: { ship: (result) => (result.label ? ['label_printed'] : []) },
    });
    const shipped = await generateText({
      model: shipModel('call-ship-2'),
      tools: reported.tools,
      prompt: 'ship',
      stopWhen: stepCountIs(3),
    });
    expect(shipped.steps[0]?.toolResults[0]?.output).toEqual({ label: 'L-1' });
    expect(await trace('call-ship-1')).toEqual(['pre:allow', 'post:deny']);
    expect(await trace('call-ship-2')).toEqual(['pre:allow', 'post:allow']);
  });

  it("keeps a tool's own needsApproval for the calls Toolgate allows, and checks again on resume", async () => {
    const own = { refund: tool({ inputSchema: refundInput, execute: refundExecute, needsApproval: true }) };
    const { model } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-own', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 300 }) : say('ok'),
    );
    const gate = withToolgate(own, { client: agent, contracts: { refund: 'ai.refund' }, context });
    const user = { role: 'user' as const, content: 'refund 3' };
    const first = await generateText({
      model,
      tools: gate.tools,
      toolApproval: gate.toolApproval,
      messages: [user],
      stopWhen: stepCountIs(3),
    });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.reason).toBeUndefined();
    expect(gate.approvalFor(request!)).toBeUndefined();
    expect(refundExecute).not.toHaveBeenCalled();

    const approved = {
      role: 'tool' as const,
      content: [{ type: 'tool-approval-response' as const, approvalId: request!.approvalId, approved: true }],
    };
    const messages = [user, ...first.responseMessages, approved];
    await generateText({ model, tools: gate.tools, toolApproval: gate.toolApproval, messages, stopWhen: stepCountIs(3) });
    expect(refundExecute).toHaveBeenCalledOnce();
    expect(await trace('call-own')).toEqual(['pre:allow', 'pre:allow', 'post:allow']);
  });

  it('fails closed when Toolgate cannot be reached: the tool does not run', async () => {
    const down = clientFor(t.agentKey, async () => {
      throw new TypeError('fetch failed');
    });
    const { model, prompts } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-down', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 100 }) : say('sorry'),
    );
    const gate = withToolgate(tools, { client: down, contracts, context });
    await generateText({ model, tools: gate.tools, toolApproval: gate.toolApproval, prompt: 'refund 1', stopWhen: stepCountIs(3) });

    expect(refundExecute).not.toHaveBeenCalled();
    expect(toolOutputs(prompts[1]!).get('call-down')).toEqual({
      type: 'error-text',
      value:
        'Toolgate could not check this call to ai.refund (network_error: POST /api/v1/validate/pre failed before an answer arrived: fetch failed); the tool did not run. Try again later.',
    });
    expect(await trace('call-down')).toEqual([]);
  });

  it('withholds the result when validate/post cannot be reached after the tool ran', async () => {
    const postDown: FetchLike = async (url, init) => {
      if (url.endsWith('/validate/post')) throw new TypeError('connection reset');
      return inProcessFetch(url, init);
    };
    const { model, prompts } = scriptedModel((outputs) =>
      outputs.size === 0 ? callTool('call-post-down', 'refund', { payment_id: 'pay_abcd1234', amount_cents: 100 }) : say('unknown'),
    );
    const gate = withToolgate(tools, { client: clientFor(t.agentKey, postDown), contracts, context });
    await generateText({ model, tools: gate.tools, toolApproval: gate.toolApproval, prompt: 'refund 1', stopWhen: stepCountIs(3) });

    expect(refundExecute).toHaveBeenCalledOnce();
    const seen = toolOutputs(prompts[1]!).get('call-post-down');
    expect(seen).toEqual({
      type: 'error-text',
      value:
        'ai.refund ran (so its effects may have happened), but Toolgate could not check its result, so it is withheld. Do not run it again; tell the user the outcome is unknown.',
    });
    expect(await trace('call-post-down')).toEqual(['pre:allow']);
  });

  it('refuses to wrap a tool without a contract id or without execute', () => {
    expect(() => withToolgate(tools, { client: agent, contracts: { refund: 'ai.refund' } as typeof contracts })).toThrow(
      'withToolgate: tool "lookup" needs a Toolgate contract id',
    );
    const clientSide = { ask: tool({ inputSchema: z.object({ q: z.string() }) }) };
    expect(() => withToolgate(clientSide, { client: agent, contracts: { ask: 'ai.ask' } })).toThrow('has no execute function');
  });
});
