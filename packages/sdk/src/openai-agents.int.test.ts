import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Runner, setTracingDisabled } from '@openai/agents';
import { db } from '@/lib/db';
import {
  callTool,
  clientFor,
  contextOf,
  executes,
  inProcessFetch,
  say,
  ScriptedModel,
  sentFor,
  setUpTenant,
} from './testing/openai-agents-harness.ts';

/**
 * The adapter in a real agent loop: the framework's Runner drives a scripted model (no network,
 * no tracing export) through Toolgate-checked tools, against the real route handlers and a real
 * database. The scripted model reads each tool output it is given, as a model would. Calls held
 * for approval: openai-agents-approvals.int.test.ts.
 */

setTracingDisabled(true);
const runner = new Runner({ tracingDisabled: true });
let h: Awaited<ReturnType<typeof setUpTenant>>;

beforeAll(async () => {
  h = await setUpTenant();
});

beforeEach(() => {
  for (const execute of Object.values(executes)) execute.mockClear();
});

describe('checked calls in a run', () => {
  it('runs an allowed call once and records pre and post evidence under the tool call id', async () => {
    const model = new ScriptedModel([
      () => [callTool('call_allow', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 500 })],
      (output) => [say(`done: ${output}`)],
    ]);
    const result = await runner.run(h.agentWith(model), 'Refund 5.00 on pay_abcdefgh12', { context: { userId: 'u-7' } });
    expect(executes.refund).toHaveBeenCalledExactlyOnceWith({ payment_id: 'pay_abcdefgh12', amount_cents: 500 });
    expect(JSON.parse(model.seen[1]!)).toEqual({ refund_id: 're_abcdefgh12', amount_cents: 500 });
    expect(result.finalOutput).toMatch(/^done: /);
    expect(await h.trail('call_allow')).toEqual(['pre:allow', 'post:allow']);
    // The caller comes from the run's context, per call.
    expect(sentFor('/api/v1/validate/pre', 'call_allow')).toMatchObject([{ context: { user_id: 'u-7', roles: ['support'] } }]);
    expect(sentFor('/api/v1/validate/post', 'call_allow')).toMatchObject([
      { version: '1.0.0', result: { refund_id: 're_abcdefgh12', amount_cents: 500 }, context: { user_id: 'u-7' } },
    ]);
  });

  it("gives the model Toolgate's llm_message for a refused call, and runs the corrected one", async () => {
    const model = new ScriptedModel([
      () => [callTool('call_refused', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 50_000 })],
      // The model does what the refusal says: it refunds at most 10000 cents.
      (output) =>
        output?.includes('Refund at most 10000 cents')
          ? [callTool('call_fixed', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 10_000 })]
          : [say('gave up')],
      () => [say('refunded 100.00')],
    ]);
    const result = await runner.run(h.agentWith(model), 'Refund 500.00 on pay_abcdefgh12');
    expect(model.seen[1]).toMatch(/^The call to agents\.refund was refused with 1 problem\. \(1\) AXAG_PRECONDITION_FAILED/);
    expect(sentFor('/api/v1/validate/pre', 'call_refused')).toEqual([
      {
        tool: 'agents.refund',
        call_id: 'call_refused',
        arguments: { payment_id: 'pay_abcdefgh12', amount_cents: 50_000 },
        context: contextOf(undefined),
        redeem_approval: true,
      },
    ]);
    expect(executes.refund).toHaveBeenCalledExactlyOnceWith({ payment_id: 'pay_abcdefgh12', amount_cents: 10_000 });
    expect(result.finalOutput).toBe('refunded 100.00');
    expect(await h.trail('call_refused')).toEqual(['pre:deny']);
    expect(await h.trail('call_fixed')).toEqual(['pre:allow', 'post:allow']);
  });

  it("answers input the tool's schema also refuses with Toolgate's llm_message, not the framework's generic error", async () => {
    const model = new ScriptedModel([
      () => [callTool('call_bad_input', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 2_000_000 })],
      () => [say('noted')],
    ]);
    await runner.run(h.agentWith(model), 'Refund everything');
    expect(executes.refund).not.toHaveBeenCalled();
    expect(model.seen[1]).toMatch(/^The call to agents\.refund was refused with 1 problem\. \(1\) AXAG_OUT_OF_RANGE at \$\.amount_cents/);
    expect(model.seen[1]).toContain('got 2000000');
    expect(await h.trail('call_bad_input')).toEqual(['pre:deny']);
  });

  it("keeps the framework's own answer to bad input when it cannot tell which of two calls it is about", async () => {
    const model = new ScriptedModel([
      () => [
        callTool('call_bad_1', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 2_000_000 }),
        callTool('call_bad_2', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 3_000_000 }),
      ],
      () => [say('noted')],
    ]);
    const result = await runner.run(h.agentWith(model), 'Refund everything twice');
    const outputs = result.newItems.flatMap((item) =>
      item.type === 'tool_call_output_item' && item.rawItem.type === 'function_call_result' ? [[item.rawItem, item.output] as const] : [],
    );
    expect(outputs.map(([raw]) => raw.callId)).toEqual(['call_bad_1', 'call_bad_2']);
    // Each answer is the refusal Toolgate gave for that very call, or the framework's own words.
    for (const [raw, output] of outputs) {
      const own = raw.callId === 'call_bad_1' ? 'got 2000000' : 'got 3000000';
      expect(output === 'An error occurred while running the tool. Please try again.' || String(output).includes(own), String(output)).toBe(
        true,
      );
    }
    expect(executes.refund).not.toHaveBeenCalled();
  });

  it("runs a transformed call with the policy's arguments", async () => {
    const model = new ScriptedModel([() => [callTool('call_transform', 'search_orders', { query: 'late', limit: 50 })], () => [say('ok')]]);
    await runner.run(h.agentWith(model), 'Find late orders');
    expect(executes.search).toHaveBeenCalledExactlyOnceWith({ query: 'late', limit: 10 });
    expect(await h.trail('call_transform')).toEqual(['pre:transform', 'post:allow']);
    expect(sentFor('/api/v1/validate/post', 'call_transform')).toMatchObject([
      { arguments: { query: 'late', limit: 10 }, result: { hits: 10 } },
    ]);
  });

  it('withholds a result Toolgate refuses after the tool ran', async () => {
    executes.refund.mockImplementationOnce(async (input) => ({ refund_id: 're_x', amount_cents: input.amount_cents * 2 }));
    const model = new ScriptedModel([
      () => [callTool('call_post_deny', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 700 })],
      () => [say('ok')],
    ]);
    await runner.run(h.agentWith(model), 'Refund 7.00');
    expect(executes.refund).toHaveBeenCalledOnce();
    expect(model.seen[1]).toMatch(/^refund_payment ran \(so its side effects may have happened\), but Toolgate refused its result/);
    expect(model.seen[1]).toContain('The result of agents.refund was refused with 1 problem.');
    expect(model.seen[1]).not.toContain('re_x');
    expect(await h.trail('call_post_deny')).toEqual(['pre:allow', 'post:deny']);
    const post = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: h.t.tenant.id }, callId: 'call_post_deny', kind: 'post' },
    });
    expect(JSON.parse(post.errors).map((e: { code: string }) => e.code)).toEqual(['AXAG_POSTCONDITION_FAILED']);
  });

  it('records an error the tool throws and leaves its wording to the framework', async () => {
    executes.refund.mockRejectedValueOnce(Object.assign(new Error('card network down'), { code: 'card_network' }));
    const model = new ScriptedModel([
      () => [callTool('call_throws', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 300 })],
      () => [say('ok')],
    ]);
    await runner.run(h.agentWith(model), 'Refund 3.00');
    expect(model.seen[1]).toBe('An error occurred while running the tool. Please try again.');
    expect(await h.trail('call_throws')).toEqual(['pre:allow', 'post:allow']);
    expect(sentFor('/api/v1/validate/post', 'call_throws')).toEqual([
      expect.objectContaining({ error: { code: 'card_network', message: 'card network down' }, version: '1.0.0' }),
    ]);
  });

  it('fails closed when Toolgate cannot be reached: the tool does not run and the model is told', async () => {
    const down = clientFor(h.t.agentKey, async () => {
      throw new TypeError('fetch failed: connect ECONNREFUSED');
    });
    const model = new ScriptedModel([
      () => [callTool('call_down', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 500 })],
      () => [say('later')],
    ]);
    const result = await runner.run(h.agentWith(model, down), 'Refund 5.00');
    expect(executes.refund).not.toHaveBeenCalled();
    expect(result.interruptions).toEqual([]);
    expect(model.seen[1]).toMatch(
      /^Toolgate could not check this call to agents\.refund \(network_error: .*ECONNREFUSED.*\); the tool did not run\. Try again later\.$/,
    );
    expect(await h.trail('call_down')).toEqual([]);
  });

  it('withholds the result when Toolgate goes away between the check and the result', async () => {
    const flaky = clientFor(h.t.agentKey, async (url, init) => {
      if (url.endsWith('/validate/post')) throw new TypeError('fetch failed: socket hang up');
      return inProcessFetch(url, init);
    });
    const model = new ScriptedModel([
      () => [callTool('call_post_down', 'refund_payment', { payment_id: 'pay_abcdefgh12', amount_cents: 400 })],
      () => [say('ok')],
    ]);
    await runner.run(h.agentWith(model, flaky), 'Refund 4.00');
    expect(executes.refund).toHaveBeenCalledOnce();
    expect(model.seen[1]).toMatch(/^agents\.refund ran \(so its side effects may have happened\), but Toolgate could not check its result/);
    expect(model.seen[1]).not.toContain('re_abcdefgh12');
    expect(await h.trail('call_post_down')).toEqual(['pre:allow']);
  });
});
