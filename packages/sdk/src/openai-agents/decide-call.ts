import type { ToolgateClient } from '../create-toolgate-client.ts';
import { describeValue } from '../describe-value.ts';
import type { CallContext, PostCallRequest, ValidationResponse } from '../wire-types.ts';
import type { PreOutcome } from './checked-calls.ts';
import { approvalOutcomeMessage, refusedMessage, unreachableMessage } from './model-messages.ts';

/**
 * The Toolgate side of one tool call, free of the framework: validate/pre, what a held call
 * needs before it may run, and validate/post. Whatever cannot be checked does not run.
 */

export interface CallSubject {
  client: ToolgateClient;
  contract: string;
  version?: string;
  callId: string;
  arguments: Record<string, unknown>;
  context?: CallContext;
  signal?: AbortSignal;
}

export type CallDecision =
  | { run: true; arguments: Record<string, unknown>; response: ValidationResponse }
  | { run: false; output: string; response?: ValidationResponse };

export function isHeld(response: ValidationResponse): boolean {
  return response.decision === 'require_approval' || response.decision === 'escalate';
}

function rethrowAbort(error: unknown, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw error;
}

/**
 * validate/pre for the call. It always asks to redeem an approval already granted for exactly
 * this call (same tool, arguments and user, asked for by this key), so a call the model repeats
 * after a person approved it goes through without another pause, and a call whose run was
 * restored from a serialized state finds its approval again.
 */
export async function checkCall(subject: CallSubject): Promise<PreOutcome> {
  const { client, contract, version, callId, context, signal } = subject;
  try {
    const response = await client.validatePre(
      { tool: contract, version, call_id: callId, arguments: subject.arguments, context, redeem_approval: true },
      { signal },
    );
    return { kind: 'answer', response };
  } catch (error) {
    rethrowAbort(error, signal);
    return { kind: 'unreachable', error };
  }
}

/**
 * Whether the tool runs, and with which arguments. A held call reaches this only after the
 * framework let it through (a person approved the interruption, or approved the tool for good);
 * the decision still lives in Toolgate: the call runs only with Toolgate's approval, redeemed
 * with its single-use token (bound to the arguments an approver may have edited).
 */
export async function decideCall(subject: CallSubject, earlier: PreOutcome | undefined): Promise<CallDecision> {
  const { client, contract, signal } = subject;
  const outcome = earlier ?? (await checkCall(subject));
  if (outcome.kind === 'unreachable') return { run: false, output: unreachableMessage(contract, outcome.error) };
  let response = outcome.response;
  let args = subject.arguments;
  if (isHeld(response) && response.approval) {
    try {
      const approval = await client.getApproval(response.approval.id, { signal });
      if (approval.status !== 'approved' || !approval.approval_token) {
        return { run: false, output: approvalOutcomeMessage(contract, approval), response };
      }
      if (approval.edited && approval.arguments) args = approval.arguments;
      response = await client.validatePre(
        {
          tool: contract,
          version: subject.version,
          call_id: subject.callId,
          arguments: args,
          context: subject.context,
          approval_token: approval.approval_token,
        },
        { signal },
      );
    } catch (error) {
      rethrowAbort(error, signal);
      return { run: false, output: unreachableMessage(contract, error), response };
    }
  }
  if (response.decision === 'transform' && response.arguments) return { run: true, arguments: response.arguments, response };
  if (response.decision === 'allow') return { run: true, arguments: args, response };
  return { run: false, output: refusedMessage(contract, response.llm_message, response.decision), response };
}

export type ResultCheck = { ok: true; response: ValidationResponse } | { ok: false; error: unknown };

/** validate/post on what the tool returned or threw, against the contract version pre decided with. */
export async function checkResult(
  subject: CallSubject,
  pre: ValidationResponse,
  outcome: { result: unknown } | { error: unknown },
  sideEffects: { id: string; [key: string]: unknown }[],
  executionMs: number,
): Promise<ResultCheck> {
  const { client, contract, callId, context, signal } = subject;
  const request = {
    tool: contract,
    version: pre.version ?? subject.version,
    call_id: callId,
    arguments: subject.arguments,
    context,
    ...outcome,
    side_effects: sideEffects.length > 0 ? sideEffects : undefined,
    execution_ms: Math.min(86_400_000, Math.max(0, Math.round(executionMs))),
  } as PostCallRequest;
  try {
    return { ok: true, response: await client.validatePost(request, { signal }) };
  } catch (error) {
    rethrowAbort(error, signal);
    return { ok: false, error };
  }
}

/** What validate/post is told about a thrown error: its code when it has one, and its message. */
export function errorPayload(error: unknown): { code: string; message: string } {
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'tool_error';
  const message = error instanceof Error ? error.message : describeValue(error);
  return { code, message: message.length > 500 ? `${message.slice(0, 499)}…` : message };
}
