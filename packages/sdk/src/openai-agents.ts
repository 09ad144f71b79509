/**
 * `@toolgate/sdk/openai-agents`: function tools for the OpenAI Agents SDK (`@openai/agents`)
 * whose calls Toolgate checks. A tool's `needsApproval` asks validate/pre, so a call Toolgate
 * holds for a person pauses the run as the framework's own interruption; its `execute` runs the
 * tool only on Toolgate's allow (or transform, or redeemed approval), then asks validate/post.
 * A refusal reaches the model as the tool's output: Toolgate's `llm_message`, so it can correct
 * the call. Whatever Toolgate cannot check does not run, and an unchecked result is not shown.
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import type { z } from 'zod';
import type { ToolgateClient } from './create-toolgate-client.ts';
import type { ExecuteContext } from './define-tool.ts';
import type { CallContext } from './wire-types.ts';
import { rememberCall, takeCall, takeLoneRejectedInput, type CheckedCall } from './openai-agents/checked-calls.ts';
import { checkCall, checkResult, decideCall, errorPayload, isHeld, type CallSubject } from './openai-agents/decide-call.ts';
import { refusedMessage, reshapedArgumentsMessage, resultRefusedMessage, resultUncheckedMessage } from './openai-agents/model-messages.ts';

export { settleToolgateApprovals, toolgateApprovals } from './openai-agents/settle-approvals.ts';
export type { PausedRun, SettleOptions, SettledApproval, ToolgateApprovalRequest } from './openai-agents/settle-approvals.ts';

type ObjectSchema = z.ZodObject;
/** What the framework hands `execute` besides the input: the model's tool call and the abort signal. */
export type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

export interface ToolgateToolOptions<TContext = unknown> {
  client: ToolgateClient;
  /** The published contract the calls are checked against, e.g. `payments.refund`. */
  contract: string;
  /** Whom the agent acts for (user_id, roles, tenant_id, state): fixed, or read from the run's context per call. */
  context?: CallContext | ((runContext: RunContext<TContext> | undefined) => CallContext | undefined);
  /** Pin a published contract version; default the latest published one. */
  version?: string;
}

export interface ToolgateToolDefinition<P extends ObjectSchema, TContext = unknown, Result = unknown> {
  /** The name the model calls the tool by. */
  name: string;
  description: string;
  parameters: P;
  /**
   * Runs only once Toolgate allowed the call, with the arguments Toolgate cleared (a policy's
   * transform or an approver's edit may differ from the model's). The fourth argument carries
   * the call id and `reportSideEffect` for the contract's declared side effects.
   */
  execute: (
    input: z.output<P>,
    runContext: RunContext<TContext> | undefined,
    details: ToolCallDetails | undefined,
    toolgate: ExecuteContext,
  ) => Result | Promise<Result>;
  /**
   * What the model reads when `execute` throws (after validate/post recorded the error) or the
   * framework refuses the model's input; `null` lets the error end the run. A Toolgate refusal
   * of input the schema also refused is answered with Toolgate's `llm_message` regardless.
   */
  errorFunction?: ((runContext: RunContext<TContext>, error: unknown, details?: ToolCallDetails) => string | Promise<string>) | null;
  timeoutMs?: number;
}

/** The framework's own default, kept for tools that set no errorFunction. */
const DEFAULT_ERROR_MESSAGE = 'An error occurred while running the tool. Please try again.';

/**
 * Like the framework's `tool()`, with every call checked by Toolgate against `options.contract`.
 * The tool returns `Result`, or a string telling the model why it did not run or why its result
 * is withheld.
 */
export function toolgateTool<P extends ObjectSchema, TContext = unknown, Result = unknown>(
  definition: ToolgateToolDefinition<P, TContext, Result>,
  options: ToolgateToolOptions<TContext>,
): FunctionTool<TContext, P, Result | string> {
  const { name, parameters } = definition;
  const { client, contract } = options;
  if (!name) throw new TypeError('toolgateTool: name is required');
  if (!contract) throw new TypeError(`toolgateTool "${name}": options.contract (the contract id) is required`);

  const subjectFor = (runContext: RunContext<TContext> | undefined, callId: string, args: Record<string, unknown>): CallSubject => ({
    client,
    contract,
    version: options.version,
    callId,
    arguments: args,
    context: typeof options.context === 'function' ? options.context(runContext) : options.context,
  });

  // Asked once per call before it runs: the framework pauses the run when this says true.
  const needsApproval = async (runContext: RunContext<TContext>, input: unknown, callId?: string): Promise<boolean> => {
    const args = input as Record<string, unknown>;
    const id = callId ?? globalThis.crypto.randomUUID();
    // The framework hands over its parsed input, or the raw arguments when its parse failed.
    const inputRejected = !parameters.safeParse(args).success;
    const outcome = await checkCall(subjectFor(runContext, id, args));
    rememberCall(runContext, id, { tool: name, contract, client, argumentsJson: JSON.stringify(args), inputRejected, outcome });
    return outcome.kind === 'answer' && isHeld(outcome.response);
  };

  const execute = async (input: z.output<P>, runContext?: RunContext<TContext>, details?: ToolCallDetails): Promise<Result | string> => {
    const callId = details?.toolCall?.callId ?? globalThis.crypto.randomUUID();
    const args = input as Record<string, unknown>;
    const subject = { ...subjectFor(runContext, callId, args), signal: details?.signal };
    const remembered = takeCall(runContext, callId);
    // Only an answer about exactly these arguments counts; anything else is checked afresh.
    const earlier = remembered?.argumentsJson === JSON.stringify(args) ? remembered.outcome : undefined;
    const decision = await decideCall(subject, earlier);
    if (!decision.run) return decision.output;

    let callInput = input;
    if (decision.arguments !== args) {
      const reparsed = parameters.safeParse(decision.arguments);
      if (!reparsed.success) return reshapedArgumentsMessage(contract);
      callInput = reparsed.data as z.output<P>;
    }
    const ran = { ...subject, arguments: decision.arguments };
    const sideEffects: { id: string; [key: string]: unknown }[] = [];
    const toolgate: ExecuteContext = {
      callId,
      signal: details?.signal,
      reportSideEffect: (id, extra) => sideEffects.push({ ...extra, id }),
    };
    const started = performance.now();
    let result: Result;
    try {
      result = await definition.execute(callInput, runContext, details, toolgate);
    } catch (error) {
      // Recorded, then left to the framework, which words it for the model (errorFunction).
      await checkResult(ran, decision.response, { error: errorPayload(error) }, sideEffects, performance.now() - started);
      throw error;
    }
    const checked = await checkResult(ran, decision.response, { result }, sideEffects, performance.now() - started);
    if (!checked.ok) return resultUncheckedMessage(contract, checked.error);
    if (!checked.response.valid) return resultRefusedMessage(name, checked.response.llm_message);
    return result;
  };

  // The framework refuses input its schema rejects before `execute` (by default with a generic
  // message); when Toolgate refused the same call, its llm_message says how to fix it.
  const refusalOf = (call: CheckedCall | undefined): string | undefined => {
    if (call?.outcome.kind !== 'answer') return undefined;
    const { response } = call.outcome;
    if (response.decision === 'allow' || response.decision === 'transform' || isHeld(response)) return undefined;
    return refusedMessage(contract, response.llm_message, response.decision);
  };
  const own = definition.errorFunction;
  const errorFunction = async (runContext: RunContext<TContext>, error: unknown, details?: ToolCallDetails): Promise<string> => {
    const callId = details?.toolCall?.callId;
    const refusal = refusalOf(callId ? takeCall(runContext, callId) : takeLoneRejectedInput(runContext, name));
    if (refusal !== undefined) return refusal;
    if (own === null) throw error;
    return own ? own(runContext, error, details) : DEFAULT_ERROR_MESSAGE;
  };

  return tool({
    name,
    description: definition.description,
    parameters,
    strict: true,
    needsApproval,
    execute,
    errorFunction,
    timeoutMs: definition.timeoutMs,
  } as never) as FunctionTool<TContext, P, Result | string>;
}
