import type { PostCallRequest, ValidationResponse } from '../wire-types.ts';
import type { GateSettings } from './gate-call.ts';
import { ToolgateToolError } from './toolgate-tool-error.ts';

export interface CheckedRun {
  contractId: string;
  callId: string;
  /** The arguments validate/pre allowed (or transformed, or an approver edited): what the tool runs with. */
  args: Record<string, unknown>;
  pre: ValidationResponse;
  signal: AbortSignal | undefined;
  /** Runs the developer's tool (with `args` as its input schema parses them); its value may be an AsyncIterable of preliminary results. */
  execute: () => unknown;
  /** The contract's side effects a result shows happened, reported to validate/post. */
  sideEffects: ((result: unknown, args: Record<string, unknown>) => readonly string[]) | undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';
}

function errorPayload(error: unknown): { code: string; message: string } {
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'tool_error';
  const message = error instanceof Error ? error.message : String(error);
  return { code, message: message.length > 500 ? `${message.slice(0, 499)}…` : message };
}

/**
 * Runs an allowed call and checks what came back with validate/post before the model sees it.
 * A streaming tool's preliminary results are consumed here and only its last one is checked and
 * returned: a result Toolgate has not checked never reaches the model. When validate/post refuses
 * the result or cannot be asked, the result is withheld (the tool did run, so the message says
 * not to repeat it); a tool error validate/post accepts is rethrown as the tool threw it.
 */
export async function runChecked(settings: GateSettings, run: CheckedRun): Promise<unknown> {
  const { contractId, callId, args, pre, signal } = run;
  const started = Date.now();
  let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
  let sideEffects: { id: string }[] = [];
  try {
    let value = await run.execute();
    if (isAsyncIterable(value)) {
      let last: unknown = undefined;
      for await (const part of value) last = part;
      value = last;
    }
    outcome = { ok: true, result: value };
    sideEffects = (run.sideEffects?.(value, args) ?? []).map((id) => ({ id }));
  } catch (error) {
    outcome = { ok: false, error };
  }

  const request = {
    tool: contractId,
    version: pre.version ?? undefined,
    call_id: callId,
    arguments: args,
    context: settings.context,
    execution_ms: Math.min(86_400_000, Math.max(0, Date.now() - started)),
    side_effects: sideEffects.length > 0 ? sideEffects : undefined,
    ...(outcome.ok ? { result: outcome.result ?? null } : { error: errorPayload(outcome.error) }),
  } as PostCallRequest;
  const withheld = (message: string, extra: { response?: ValidationResponse; cause?: unknown }) =>
    new ToolgateToolError({ code: 'result_withheld', message, toolCallId: callId, contractId, ...extra });

  let post: ValidationResponse;
  try {
    post = await settings.client.validatePost(request, { signal, traceparent: settings.traceparent });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw withheld(
      `${contractId} ran (so its effects may have happened), but Toolgate could not check its ${outcome.ok ? 'result' : 'error'}, so it is withheld. Do not run it again; tell the user the outcome is unknown.`,
      { cause: error },
    );
  }
  if (post.decision !== 'allow') {
    throw withheld(post.llm_message ?? `${contractId} ran, but Toolgate refused its result (decision: ${post.decision}); it is withheld.`, {
      response: post,
    });
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}
