import {
  asSchema,
  type InferToolOutput,
  type ModelMessage,
  type Tool,
  type ToolApprovalStatus,
  type ToolExecutionOptions,
  type ToolSet,
} from 'ai';
import { TOOL_ID_PATTERN } from './contract-schema.ts';
import type { ToolgateClient } from './create-toolgate-client.ts';
import type { ApprovalRef, CallContext } from './wire-types.ts';
import { approvalIdInMessages, approvalIdInReason, approvalReason } from './ai-sdk/approval-reason.ts';
import { gateCall, type Gated, type GateSettings } from './ai-sdk/gate-call.ts';
import { runChecked } from './ai-sdk/run-checked.ts';
import { ToolgateToolError } from './ai-sdk/toolgate-tool-error.ts';
import { reshapedArgumentsMessage } from './openai-agents/model-messages.ts';

/**
 * `@toolgate/sdk/ai-sdk`: Vercel AI SDK (`ai` v7) tools whose every call goes through Toolgate.
 * validate/pre decides before `execute` runs and validate/post checks what it returned; a call
 * Toolgate holds for approval becomes the AI SDK's own tool approval. Toolgate's approval is the
 * authority: approving the AI SDK's request only resumes the run, and the tool runs once Toolgate's
 * approval is approved (decided in Toolgate's approval queue), with its single-use token.
 */

export { ToolgateToolError } from './ai-sdk/toolgate-tool-error.ts';
export type { ToolgateToolErrorCode } from './ai-sdk/toolgate-tool-error.ts';

export interface ToolgateToolsOptions<TOOLS extends ToolSet> {
  client: ToolgateClient;
  /** The Toolgate contract id each tool is checked against, e.g. `{ refund: 'payments.refund' }`. */
  contracts: { [NAME in keyof TOOLS]: string };
  /** Who the agent acts for (user_id, roles, state): what contracts and policies read as `context`. */
  context?: CallContext;
  /** W3C trace context of the agent's span, sent with every request to Toolgate. */
  traceparent?: string;
  /**
   * Per tool, the contract's side effects a result shows happened (by id), reported to
   * validate/post: a contract that declares a side effect `required` refuses a result without it.
   */
  sideEffects?: { [NAME in keyof TOOLS]?: (result: InferToolOutput<TOOLS[NAME]>, args: Record<string, unknown>) => readonly string[] };
  /**
   * When a resumed call's Toolgate approval is still undecided, wait this long for the decision
   * before telling the model the call is pending. Default 0 (do not wait).
   */
  approvalWaitMs?: number;
}

/** Anything that names a tool call and may carry an approval reason: an AI SDK approval request, in a result or in messages. */
export interface ApprovalRequestLike {
  toolCallId?: string;
  toolCall?: { toolCallId: string };
  reason?: string;
}

type ToolApprovalOptions = {
  toolCall: { toolName: string; toolCallId: string; input: unknown };
  messages: ModelMessage[];
  toolsContext?: unknown;
};
type NeedsApprovalCall = { toolCallId: string; messages: ModelMessage[]; context?: unknown };

export interface ToolgateTools<TOOLS extends ToolSet> {
  /** The tools, each checked by Toolgate; pass them as `tools` to generateText, streamText or an agent. */
  tools: TOOLS;
  /**
   * Pass as `toolApproval`: asks Toolgate about each call of these tools and turns a hold into a
   * `user-approval` whose reason starts with Toolgate's approval id. Tools not wrapped here are
   * left alone (not-applicable).
   */
  toolApproval: (options: ToolApprovalOptions) => Promise<ToolApprovalStatus>;
  /** The Toolgate approval behind an AI SDK tool-approval-request, or undefined when Toolgate did not hold that call. */
  approvalFor(request: ApprovalRequestLike): Pick<ApprovalRef, 'id' | 'poll_url'> | undefined;
}

type AnyExecute = (input: unknown, options: ToolExecutionOptions<unknown>) => unknown;

/** Calls the approval step has decided, kept for the `execute` that follows, by tool call id. */
const REMEMBERED_CALLS = 1000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function withToolgate<TOOLS extends ToolSet>(tools: TOOLS, options: ToolgateToolsOptions<TOOLS>): ToolgateTools<TOOLS> {
  const settings: GateSettings = {
    client: options.client,
    context: options.context,
    traceparent: options.traceparent,
    approvalWaitMs: Math.max(0, options.approvalWaitMs ?? 0),
  };
  const contracts = options.contracts as Record<string, string | undefined>;
  const sideEffects = (options.sideEffects ?? {}) as Record<
    string,
    ((result: unknown, args: Record<string, unknown>) => readonly string[]) | undefined
  >;
  for (const [name, tool] of Object.entries(tools)) {
    const contractId = contracts[name];
    if (typeof contractId !== 'string' || !TOOL_ID_PATTERN.test(contractId)) {
      throw new TypeError(`withToolgate: tool "${name}" needs a Toolgate contract id in options.contracts (e.g. "payments.refund")`);
    }
    if (typeof tool.execute !== 'function' || tool.type === 'provider') {
      throw new TypeError(`withToolgate: tool "${name}" has no execute function the AI SDK runs, so Toolgate cannot check its calls`);
    }
  }

  const calls = new Map<string, { toolName: string; gated: Gated }>();
  const remember = (toolCallId: string, toolName: string, gated: Gated) => {
    calls.delete(toolCallId);
    calls.set(toolCallId, { toolName, gated });
    // Held calls wait here for a resume that may never come; the oldest go first.
    if (calls.size > REMEMBERED_CALLS) calls.delete(calls.keys().next().value as string);
  };

  const gate = (toolName: string, input: unknown, toolCallId: string, messages: ModelMessage[] | undefined, signal?: AbortSignal) => {
    const contractId = contracts[toolName] as string;
    if (!isPlainObject(input)) {
      const message = `The arguments of ${toolName} must be a JSON object; the tool did not run.`;
      return Promise.resolve<Gated>({ kind: 'refuse', error: new ToolgateToolError({ code: 'refused', message, toolCallId, contractId }) });
    }
    const known = calls.get(toolCallId);
    const heldBefore = known?.toolName === toolName && known.gated.kind === 'hold' ? known.gated.approval.id : undefined;
    const approvalId = heldBefore ?? approvalIdInMessages(messages, toolCallId);
    return gateCall(settings, { contractId, callId: toolCallId, args: input, approvalId, signal });
  };

  const decide = async (toolName: string, input: unknown, toolCallId: string, messages: ModelMessage[]) => {
    const gated = await gate(toolName, input, toolCallId, messages);
    remember(toolCallId, toolName, gated);
    return gated;
  };

  /** A tool's own needsApproval still asks for a person on the calls Toolgate lets through. */
  const ownApproval = async (name: string, input: unknown, call: NeedsApprovalCall) => {
    const own = (tools[name] as Tool).needsApproval as boolean | ((input: unknown, call: NeedsApprovalCall) => unknown) | undefined;
    return typeof own === 'function' ? Boolean(await own(input, call)) : own === true;
  };

  /**
   * Arguments Toolgate changed (a policy's transform, an approver's edit) never went through the
   * tool's inputSchema, which the AI SDK applied to the model's: they are parsed with it here, so
   * execute gets what its schema makes of them (defaults, transforms) or does not run.
   */
  const ownParse = async (name: string, tool: Tool, gated: Extract<Gated, { kind: 'run' }>, toolCallId: string) => {
    const validate = asSchema(tool.inputSchema).validate;
    if (!validate) return gated.args;
    const parsed = await validate(gated.args);
    if (parsed.success) return parsed.value;
    const contractId = contracts[name] as string;
    const message = reshapedArgumentsMessage(contractId);
    throw new ToolgateToolError({ code: 'refused', message, toolCallId, contractId, response: gated.pre, cause: parsed.error });
  };

  const wrapped: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute as AnyExecute;
    wrapped[name] = {
      ...tool,
      // The AI SDK 7 falls back to a tool's needsApproval when the call sets no toolApproval, so the
      // tools pause for Toolgate's approvals on their own; `toolApproval` adds the reason.
      needsApproval: async (input: unknown, call: NeedsApprovalCall) => {
        const gated = await decide(name, input, call.toolCallId, call.messages);
        return gated.kind === 'hold' || (gated.kind === 'run' && (await ownApproval(name, input, call)));
      },
      execute: async (input: unknown, execution: ToolExecutionOptions<unknown>) => {
        const { toolCallId, abortSignal } = execution;
        const known = calls.get(toolCallId);
        if (known?.toolName === name) calls.delete(toolCallId);
        // A call the approval step held is asked again: the human may have decided since, and an
        // approval step the developer replaced with their own must not let a held call through.
        const gated =
          known?.toolName === name && known.gated.kind !== 'hold'
            ? known.gated
            : await gate(name, input, toolCallId, execution.messages, abortSignal);
        if (gated.kind !== 'run') throw gated.error;
        // validate/post is told the arguments validate/pre cleared; execute gets its schema's parse of them.
        const parsed = gated.args === input ? input : await ownParse(name, tool, gated, toolCallId);
        return runChecked(settings, {
          contractId: contracts[name] as string,
          callId: toolCallId,
          args: gated.args,
          pre: gated.pre,
          signal: abortSignal,
          execute: () => execute(parsed, execution),
          sideEffects: sideEffects[name],
        });
      },
    } as Tool;
  }

  return {
    tools: wrapped as TOOLS,
    toolApproval: async ({ toolCall, messages, toolsContext }) => {
      const { toolName, toolCallId, input } = toolCall;
      if (!Object.hasOwn(wrapped, toolName)) return undefined;
      const gated = await decide(toolName, input, toolCallId, messages);
      if (gated.kind === 'hold') return { type: 'user-approval', reason: approvalReason(gated.approval, gated.error.response) };
      const context = (toolsContext as Record<string, unknown> | undefined)?.[toolName];
      return gated.kind === 'run' && (await ownApproval(toolName, input, { toolCallId, messages, context })) ? 'user-approval' : undefined;
    },
    approvalFor: (request) => {
      const toolCallId = request.toolCallId ?? request.toolCall?.toolCallId;
      const known = toolCallId === undefined ? undefined : calls.get(toolCallId);
      const id = known?.gated.kind === 'hold' ? known.gated.approval.id : approvalIdInReason(request.reason);
      return id === undefined ? undefined : { id, poll_url: `/api/v1/approvals/${encodeURIComponent(id)}` };
    },
  };
}
