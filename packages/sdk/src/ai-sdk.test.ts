import type { ModelMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import type { ToolgateClient } from './create-toolgate-client.ts';
import type { PostCallRequest, ValidationResponse } from './wire-types.ts';
import { approvalIdInMessages, approvalIdInReason, approvalReason } from './ai-sdk/approval-reason.ts';
import { runChecked } from './ai-sdk/run-checked.ts';
import { ToolgateToolError } from './ai-sdk/toolgate-tool-error.ts';

const answer = (decision: ValidationResponse['decision'], extra: Partial<ValidationResponse> = {}): ValidationResponse => ({
  valid: decision === 'allow',
  decision,
  errors: [],
  warnings: [],
  trace_id: 't',
  call_id: 'c',
  evidence_id: 'e',
  tool: 'ai.tool',
  version: '1.0.0',
  contract_hash: 'h',
  ...extra,
});
const ref = { id: 'cmabc123', status: 'pending', expires_at: '2030-01-01T00:00:00.000Z', poll_url: '/api/v1/approvals/cmabc123' };

describe('the Toolgate approval id in an AI SDK approval request', () => {
  it('is written at the start of the reason and read back', () => {
    const reason = approvalReason(ref, answer('require_approval', { errors: [{ message: 'needs approver' } as never] }));
    expect(reason).toBe('Toolgate approval cmabc123: needs approver');
    expect(approvalIdInReason(reason)).toBe('cmabc123');
    expect(approvalIdInReason(approvalReason(ref, undefined))).toBe('cmabc123');
  });

  it('is not read from a reason the adapter did not write', () => {
    for (const reason of [
      undefined,
      42,
      '',
      'please approve',
      'Approve Toolgate approval cmabc123',
      'Toolgate approval ../x: y',
      'Toolgate approval cm/1',
    ])
      expect(approvalIdInReason(reason)).toBeUndefined();
  });

  it('is found in the history for this tool call only, the latest request winning', () => {
    const request = (toolCallId: string, reason?: string) => ({
      type: 'tool-approval-request' as const,
      approvalId: `a-${toolCallId}`,
      toolCallId,
      reason,
    });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [request('call-1', 'Toolgate approval old1'), request('call-2', 'Toolgate approval other')] },
      { role: 'assistant', content: [request('call-1', 'Toolgate approval new1: why'), request('call-1', 'not ours')] },
    ];
    expect(approvalIdInMessages(messages, 'call-1')).toBe('new1');
    expect(approvalIdInMessages(messages, 'call-3')).toBeUndefined();
    expect(approvalIdInMessages(undefined, 'call-1')).toBeUndefined();
  });
});

describe('ToolgateToolError', () => {
  it('reads as its message alone, as text and as JSON, which is what the model is shown', () => {
    const error = new ToolgateToolError({ code: 'refused', message: 'The call was refused.', toolCallId: 'c', contractId: 'ai.tool' });
    expect(String(error)).toBe('The call was refused.');
    expect(JSON.stringify(error)).toBe('"The call was refused."');
    expect(error).toBeInstanceOf(Error);
  });
});

describe('runChecked', () => {
  const settings = (validatePost: (request: PostCallRequest) => Promise<ValidationResponse>) => ({
    client: { validatePost } as unknown as ToolgateClient,
    context: { user_id: 'u' },
    traceparent: undefined,
    approvalWaitMs: 0,
  });
  const run = { contractId: 'ai.tool', callId: 'c', args: { a: 1 }, pre: answer('allow'), signal: undefined, sideEffects: undefined };

  it("checks only a streaming tool's last value and returns it", async () => {
    const validatePost = vi.fn<(request: PostCallRequest) => Promise<ValidationResponse>>(async () => answer('allow'));
    const result = await runChecked(settings(validatePost), {
      ...run,
      execute: async function* () {
        yield { progress: 1 };
        yield { done: true };
      },
    });
    expect(result).toEqual({ done: true });
    expect(validatePost).toHaveBeenCalledOnce();
    expect(validatePost.mock.calls[0]?.[0]).toMatchObject({ tool: 'ai.tool', version: '1.0.0', call_id: 'c', result: { done: true } });
  });

  it("reports a tool's error to validate/post and rethrows it when post accepts it", async () => {
    const validatePost = vi.fn<(request: PostCallRequest) => Promise<ValidationResponse>>(async () => answer('allow'));
    const thrown = Object.assign(new Error('card declined'), { code: 'declined' });
    await expect(runChecked(settings(validatePost), { ...run, execute: () => Promise.reject(thrown) })).rejects.toBe(thrown);
    expect(validatePost.mock.calls[0]?.[0]).toMatchObject({ error: { code: 'declined', message: 'card declined' } });
  });

  it('sends null for a tool that returns nothing', async () => {
    const validatePost = vi.fn<(request: PostCallRequest) => Promise<ValidationResponse>>(async () => answer('allow'));
    await expect(runChecked(settings(validatePost), { ...run, execute: () => undefined })).resolves.toBeUndefined();
    expect(validatePost.mock.calls[0]?.[0]).toHaveProperty('result', null);
  });
});
