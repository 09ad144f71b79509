import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolgateClient } from './create-toolgate-client.ts';
import { defineTool, type ToolFailure, type ToolResult } from './define-tool.ts';
import { ToolgateError } from './toolgate-error.ts';
import type { Approval, PostCallRequest, PreCallRequest, ValidationResponse } from './wire-types.ts';

function failure<T>(result: ToolResult<T>): ToolFailure {
  if (!result.isError) throw new Error(`expected a failure, got ${JSON.stringify(result.content)}`);
  return result;
}

const answer = (overrides: Partial<ValidationResponse> = {}): ValidationResponse => ({
  valid: true,
  decision: 'allow',
  errors: [],
  warnings: [],
  trace_id: 'f'.repeat(32),
  call_id: 'call-1',
  evidence_id: 'ev-1',
  tool: 'payments.refund',
  version: '2.1.0',
  contract_hash: 'h',
  ...overrides,
});

const refusal = (code: string, llm: string, overrides: Partial<ValidationResponse> = {}) =>
  answer({
    valid: false,
    decision: 'deny',
    errors: [{ code, type: 'x', message: 'm', path: '$', details: { intent: 'payments.refund', suggestion: 's' } }],
    llm_message: llm,
    ...overrides,
  });

/** A client whose answers are scripted per method; every call is recorded. */
function fakeClient(script: { pre?: (ValidationResponse | Error)[]; post?: (ValidationResponse | Error)[]; approval?: Approval | Error }) {
  const pre = [...(script.pre ?? [])];
  const post = [...(script.post ?? [answer({ evidence_id: 'ev-post' })])];
  const next = async <T>(queue: (T | Error)[]) => {
    const item = queue.shift();
    if (item === undefined) throw new Error('unscripted call');
    if (item instanceof Error) throw item;
    return item;
  };
  const client = {
    baseUrl: 'https://tg.example.com',
    validatePre: vi.fn<(body: PreCallRequest) => Promise<ValidationResponse>>(() => next(pre)),
    validatePost: vi.fn<(body: PostCallRequest) => Promise<ValidationResponse>>(() => next(post)),
    waitForApproval: vi.fn(async () => {
      if (script.approval instanceof Error) throw script.approval;
      return script.approval!;
    }),
  };
  return client as typeof client & ToolgateClient;
}

function refundTool(
  execute = vi.fn(async (input: { payment_id: string; amount_cents: number }, ctx: { reportSideEffect(id: string): void }) => {
    ctx.reportSideEffect('money_moved');
    return { refund_id: `re_${input.payment_id}`, amount_cents: input.amount_cents };
  }),
) {
  const tool = defineTool({
    name: 'refund_payment',
    description: 'Refund a payment',
    input: z.object({
      payment_id: z.string(),
      amount_cents: z.number().int().min(1),
      reason: z.enum(['duplicate', 'fraudulent']).default('duplicate'),
    }),
    output: z.object({ refund_id: z.string(), amount_cents: z.number().int() }),
    contract: { id: 'payments.refund', owner: 'team-payments', kind: 'mutation', side_effect_level: 'external', idempotent: false },
    execute,
  });
  return { tool, execute };
}

const approval = (status: Approval['status'], extra: Partial<Approval> = {}): Approval => ({
  id: 'apr_1',
  status,
  tool: 'payments.refund',
  version: '2.1.0',
  call_id: 'call-1',
  trace_id: 't',
  approver_roles: ['approver'],
  reason: 'r',
  created_at: '',
  expires_at: '',
  decided_at: null,
  comment: null,
  token_used: false,
  outcome: status === 'approved' ? 'approved' : status === 'pending' ? 'pending' : 'denied',
  side_effect_level: 'external',
  approvals: 0,
  approvers_required: 1,
  escalation_level: 0,
  edited: false,
  rewritten_by: null,
  ...extra,
});
const pendingApproval = { id: 'apr_1', status: 'pending', expires_at: '2030-01-01T00:00:00.000Z', poll_url: '/api/v1/approvals/apr_1' };
const needsApproval = refusal(
  'AXAG_APPROVAL_MISSING',
  'The call to payments.refund was refused with 1 problem. (1) AXAG_APPROVAL_MISSING ... Wait for approval, then call payments.refund again with the approval token.',
  { decision: 'require_approval', approval: pendingApproval },
);

describe('tool.run with Toolgate', () => {
  it('allowed: checks, executes, then reports the parsed result and side effects', async () => {
    const client = fakeClient({ pre: [answer()] });
    const { tool, execute } = refundTool();
    const result = await tool.run(
      { payment_id: 'pay_1', amount_cents: 500 },
      { toolgate: client, callId: 'call-1', context: { tenant_id: 'acme', roles: ['support'] } },
    );
    expect(result).toMatchObject({
      isError: false,
      content: { refund_id: 're_pay_1', amount_cents: 500 },
      callId: 'call-1',
      pre: { evidence_id: 'ev-1' },
      post: { evidence_id: 'ev-post' },
    });
    expect(client.validatePre).toHaveBeenCalledWith(
      {
        tool: 'payments.refund',
        version: undefined,
        call_id: 'call-1',
        arguments: { payment_id: 'pay_1', amount_cents: 500, reason: 'duplicate' },
        context: { tenant_id: 'acme', roles: ['support'] },
        confirmation_token: undefined,
        idempotency_key: undefined,
        approval_token: undefined,
      },
      { signal: undefined },
    );
    expect(execute).toHaveBeenCalledOnce();
    expect(client.validatePost.mock.calls[0]?.[0]).toMatchObject({
      tool: 'payments.refund',
      version: '2.1.0',
      call_id: 'call-1',
      result: { refund_id: 're_pay_1', amount_cents: 500 },
      side_effects: [{ id: 'money_moved' }],
    });
  });

  it('refused by the server: returns its llm_message and does not execute', async () => {
    const client = fakeClient({
      pre: [
        refusal('AXAG_PRECONDITION_FAILED', 'The call to payments.refund was refused with 1 problem. (1) AXAG_PRECONDITION_FAILED ...'),
      ],
    });
    const { tool, execute } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result).toMatchObject({
      stage: 'pre',
      content: 'The call to payments.refund was refused with 1 problem. (1) AXAG_PRECONDITION_FAILED ...',
      arguments: { payment_id: 'pay_1', amount_cents: 500, reason: 'duplicate' },
    });
    expect(result.issues.map((i) => i.code)).toEqual(['AXAG_PRECONDITION_FAILED']);
    expect(execute).not.toHaveBeenCalled();
    expect(client.validatePost).not.toHaveBeenCalled();
  });

  it('invalid locally: never reaches the server', async () => {
    const client = fakeClient({});
    const { tool } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 0 }, { toolgate: client }));
    expect(result.stage).toBe('input');
    expect(client.validatePre).not.toHaveBeenCalled();
  });

  it('uses the client given to defineTool, and toolgate: null opts out', async () => {
    const client = fakeClient({ pre: [answer()] });
    const tool = defineTool({
      name: 'orders.lookup',
      description: 'x',
      input: z.object({}),
      output: z.object({}),
      execute: () => ({}),
      toolgate: client,
    });
    await tool.run({});
    expect(client.validatePre).toHaveBeenCalledOnce();
    await tool.run({}, { toolgate: null });
    expect(client.validatePre).toHaveBeenCalledOnce();
  });

  it('require_approval without waiting: says the approval is pending, with its id and status URL', async () => {
    const client = fakeClient({ pre: [needsApproval] });
    const { tool, execute } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result.stage).toBe('approval');
    expect(result.approval).toEqual(pendingApproval);
    expect(result.content).toMatch(
      /Wait for approval, then call payments\.refund again with the approval token\. Approval apr_1 is pending \(status: https:\/\/tg\.example\.com\/api\/v1\/approvals\/apr_1\); the call did not run/,
    );
    expect(execute).not.toHaveBeenCalled();
  });

  it('require_approval with waitForApproval: once approved, retries with the token and runs', async () => {
    const client = fakeClient({ pre: [needsApproval, answer()], approval: approval('approved', { approval_token: 'tga_ok' }) });
    const { tool, execute } = refundTool();
    const result = await tool.run(
      { payment_id: 'pay_1', amount_cents: 500 },
      { toolgate: client, callId: 'call-1', waitForApproval: { timeoutMs: 60_000 } },
    );
    expect(result.isError).toBe(false);
    expect(client.waitForApproval).toHaveBeenCalledWith('apr_1', { timeoutMs: 60_000, signal: undefined });
    expect(client.validatePre.mock.calls[1]?.[0]).toMatchObject({ call_id: 'call-1', approval_token: 'tga_ok' });
    expect(execute).toHaveBeenCalledOnce();
  });

  it('approved with edited arguments: retries and runs with exactly the edited ones, and reports them', async () => {
    const edited = { payment_id: 'pay_1', amount_cents: 200, reason: 'duplicate' };
    const client = fakeClient({
      pre: [needsApproval, answer()],
      approval: approval('approved', { approval_token: 'tga_ok', edited: true, arguments: edited }),
    });
    const { tool, execute } = refundTool();
    const result = await tool.run(
      { payment_id: 'pay_1', amount_cents: 500 },
      { toolgate: client, callId: 'call-1', waitForApproval: true },
    );
    expect(result).toMatchObject({ isError: false, content: { amount_cents: 200 } });
    expect(client.validatePre.mock.calls[1]?.[0]).toMatchObject({ arguments: edited, approval_token: 'tga_ok' });
    expect(execute.mock.calls[0]?.[0]).toEqual(edited);
    expect(client.validatePost.mock.calls[0]?.[0]).toMatchObject({ arguments: edited });
  });

  it('escalate is waited on like require_approval, and transform runs the tool with the rewritten arguments', async () => {
    const escalated = { ...needsApproval, decision: 'escalate' as const };
    const rewritten = { payment_id: 'pay_1', amount_cents: 100, reason: 'duplicate' };
    const client = fakeClient({
      pre: [escalated, answer({ decision: 'transform', arguments: rewritten })],
      approval: approval('approved', { approval_token: 'tga_ok' }),
    });
    const { tool, execute } = refundTool();
    const result = await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client, waitForApproval: true });
    expect(result.isError).toBe(false);
    expect(client.waitForApproval).toHaveBeenCalledOnce();
    expect(execute.mock.calls[0]?.[0]).toEqual(rewritten);
    expect(client.validatePost.mock.calls[0]?.[0]).toMatchObject({ arguments: rewritten });
  });

  it("does not run arguments Toolgate changed that the tool's own schema refuses, and parses those it takes", async () => {
    const odd = { payment_id: { $where: 'drop table' }, amount_cents: 100, extra: 1 };
    const client = fakeClient({ pre: [answer({ decision: 'transform', arguments: odd })] });
    const { tool, execute } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result.stage).toBe('pre');
    expect(result.content).toMatch(/changed arguments .* the tool's own schema does not accept, so it did not run/);
    expect(execute).not.toHaveBeenCalled();
    expect(client.validatePost).not.toHaveBeenCalled();
    // Taken: execute gets them as the schema reads them (the default filled in); post reports Toolgate's.
    const capped = { payment_id: 'pay_1', amount_cents: 100 };
    const fine = fakeClient({ pre: [answer({ decision: 'transform', arguments: capped })] });
    const second = refundTool();
    expect((await second.tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: fine })).isError).toBe(false);
    expect(second.execute.mock.calls[0]?.[0]).toEqual({ ...capped, reason: 'duplicate' });
    expect(fine.validatePost.mock.calls[0]?.[0]).toMatchObject({ arguments: capped });
  });

  it('require_approval with waitForApproval: denied, expired or still pending do not run', async () => {
    const cases: [Approval, RegExp][] = [
      [approval('denied', { comment: 'too large' }), /An approver denied this call to payments\.refund \("too large"\)\. Do not retry/],
      [approval('expired'), /expired before anyone decided/],
      [approval('pending'), /still waiting for approval apr_1 \(status: https:\/\/tg\.example\.com\/api\/v1\/approvals\/apr_1\)/],
      [approval('approved', { token_used: true }), /already used/],
    ];
    for (const [seen, message] of cases) {
      const client = fakeClient({ pre: [needsApproval], approval: seen });
      const { tool, execute } = refundTool();
      const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client, waitForApproval: true }));
      expect(result.stage).toBe('approval');
      expect(result.approval?.status).toBe(seen.status);
      expect(result.content).toMatch(message);
      expect(execute).not.toHaveBeenCalled();
    }
  });

  it('fails closed when Toolgate cannot be reached before the call', async () => {
    const client = fakeClient({ pre: [new ToolgateError({ status: 503, code: 'unavailable', message: 'database down', retryAfter: 2 })] });
    const { tool, execute } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result.stage).toBe('toolgate');
    expect(result.content).toBe(
      'Toolgate could not check this call to payments.refund (unavailable: database down); the tool did not run. Try again later.',
    );
    expect(result.error).toBeInstanceOf(ToolgateError);
    expect(execute).not.toHaveBeenCalled();
  });

  it('withholds the result when validate/post cannot be reached: the tool ran, but nothing checked it', async () => {
    const client = fakeClient({ pre: [answer()], post: [new TypeError('socket hang up')] });
    const { tool } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result).toMatchObject({ stage: 'post', error: { code: 'network_error', message: 'socket hang up' } });
    expect(result.content).toBe(
      'refund_payment ran (so its side effects may have happened), but Toolgate could not check its result (network_error: socket hang up), so it is not shown. Do not run it again to get another one; tell the user the outcome is unknown.',
    );
    // It may have been recorded (no answer came back), so it is not sent again.
    expect(client.validatePost).toHaveBeenCalledOnce();
  });

  it('withholds a result validate/post refused as a request (413), recording the refusal in its place', async () => {
    const tooLarge = new ToolgateError({
      status: 413,
      code: 'payload_too_large',
      message: 'The request body exceeds the limit of 1048576 bytes.',
    });
    const client = fakeClient({ pre: [answer()], post: [tooLarge, answer({ evidence_id: 'ev-post-error' })] });
    const { tool } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result).toMatchObject({ stage: 'post', error: tooLarge, post: { evidence_id: 'ev-post-error' } });
    expect(result.content).toContain('could not check its result (payload_too_large: The request body exceeds the limit');
    expect(client.validatePost.mock.calls[1]?.[0]).toMatchObject({
      call_id: result.callId,
      error: { code: 'result_too_large', message: expect.stringContaining('payload_too_large') },
      side_effects: [{ id: 'money_moved' }],
    });
    expect(client.validatePost.mock.calls[1]?.[0]).not.toHaveProperty('result');
  });

  it('withholds a result the server refuses after the call, saying the tool ran', async () => {
    const client = fakeClient({
      pre: [answer()],
      post: [
        refusal('AXAG_POSTCONDITION_FAILED', 'The call to payments.refund was refused with 1 problem. (1) AXAG_POSTCONDITION_FAILED ...'),
      ],
    });
    const { tool } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(result.stage).toBe('post');
    expect(result.content).toMatch(
      /^refund_payment ran \(so its side effects may have happened\), but Toolgate refused its result, so it is not shown\. The call to payments\.refund was refused/,
    );
  });

  it('reports a thrown error and a broken result to validate/post', async () => {
    const client = fakeClient({ pre: [answer(), answer()], post: [answer(), answer()] });
    const throwing = refundTool(
      vi.fn(async () => {
        throw Object.assign(new Error('PSP timed out'), { code: 'PSP_TIMEOUT' });
      }),
    );
    const thrown = failure(await throwing.tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(thrown.stage).toBe('execute');
    expect(client.validatePost.mock.calls[0]?.[0]).toMatchObject({ error: { code: 'PSP_TIMEOUT', message: 'PSP timed out' } });
    expect(client.validatePost.mock.calls[0]?.[0]).not.toHaveProperty('result');

    const broken = refundTool(vi.fn(async () => ({ refund_id: 42 }) as never));
    const bad = failure(await broken.tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client }));
    expect(bad.stage).toBe('output');
    expect(client.validatePost.mock.calls[1]?.[0]).toMatchObject({ result: { refund_id: 42 } });
  });

  it('turns an abort into a failure, not an exception', async () => {
    const controller = new AbortController();
    controller.abort(new Error('agent stopped'));
    const client = fakeClient({ pre: [new Error('agent stopped')] });
    const { tool } = refundTool();
    const result = failure(await tool.run({ payment_id: 'pay_1', amount_cents: 500 }, { toolgate: client, signal: controller.signal }));
    expect(result).toMatchObject({ stage: 'toolgate', content: expect.stringContaining('agent stopped') });
  });
});
