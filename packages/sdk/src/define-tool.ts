import type { z } from 'zod';
import { TOOL_ID_PATTERN, type ToolContract } from './contract-schema.ts';
import { describeValue } from './describe-value.ts';
import { llmMessage, MAX_LLM_MESSAGE_CHARS } from './llm-message.ts';
import { reshapedArgumentsMessage } from './openai-agents/model-messages.ts';
import type { ToolgateClient } from './create-toolgate-client.ts';
import { assertSupportedSchema } from './supported-zod-subset.ts';
import { ToolgateError } from './toolgate-error.ts';
import type { ApprovalRef, CallContext, ValidationIssue, ValidationResponse } from './wire-types.ts';
import { zodIssues } from './zod-issues.ts';
import { toJsonSchema, zodToContract, type ContractFields, type JsonSchema } from './zod-to-contract.ts';

/**
 * A tool an agent can call, AgentForge style: the model's input is checked with Zod before
 * `execute`, the result after it, and every failure comes back as `{isError: true, content}`
 * worded for the model, never as an exception that would end the agent loop. With a Toolgate
 * client the call is also checked and recorded by the server (validate/pre, then validate/post).
 */

/** Marks tool objects across module copies (import-tools loads user modules separately). */
export const TOOL_BRAND: unique symbol = Symbol.for('toolgate.sdk.tool') as never;

/** What to send an LLM as the tool's function definition. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments, with descriptions and defaults. */
  parameters: JsonSchema;
}

export interface ExecuteContext {
  callId: string;
  signal?: AbortSignal;
  /** Reports a side effect the contract declares, by id; it is passed on to validate/post. */
  reportSideEffect(id: string, details?: Record<string, unknown>): void;
}

type ObjectSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface ToolConfig<I extends ObjectSchema, O extends z.ZodType> {
  /** The name the model calls the tool by. */
  name: string;
  description: string;
  input: I;
  output: O;
  execute: (input: z.output<I>, context: ExecuteContext) => Promise<z.input<O>> | z.input<O>;
  /** Contract id, owner and annotations, used by `toContract()` and delegation. */
  contract?: ContractFields;
  /** Check every call with this Toolgate client unless `run` says otherwise. */
  toolgate?: ToolgateClient;
}

export interface RunOptions {
  /** Overrides the tool's client; `null` runs locally only. */
  toolgate?: ToolgateClient | null;
  /** The agent's id for this call; default a random UUID. */
  callId?: string;
  context?: CallContext;
  /** Pin a published contract version; default the latest published one. */
  version?: string;
  confirmationToken?: string;
  approvalToken?: string;
  idempotencyKey?: string;
  /** On `require_approval`, wait for the decision and, once approved, retry with the token. */
  waitForApproval?: boolean | { timeoutMs?: number };
  signal?: AbortSignal;
}

/** Where a failed run stopped. Only `execute`, `output` and `post` mean the tool ran. */
export type FailureStage = 'input' | 'toolgate' | 'pre' | 'approval' | 'execute' | 'output' | 'post';

export interface ToolSuccess<T> {
  isError: false;
  content: T;
  callId: string;
  pre?: ValidationResponse;
  post?: ValidationResponse;
  /**
   * @deprecated Never set: a result validate/post did not check (unreachable, too large, not
   * sendable as JSON) is withheld, a ToolFailure with stage `post` whose `error` is this.
   */
  postError?: ToolgateError;
}

export interface ToolFailure {
  isError: true;
  /** For the model: what went wrong and what to do instead. */
  content: string;
  callId: string;
  stage: FailureStage;
  issues: ValidationIssue[];
  /** The arguments as sent to Toolgate (defaults applied): what a confirmation must cover. */
  arguments?: Record<string, unknown>;
  pre?: ValidationResponse;
  post?: ValidationResponse;
  approval?: ApprovalRef;
  /** What `execute` threw, or the ToolgateError that stopped the run. */
  error?: unknown;
}

export type ToolResult<T> = ToolSuccess<T> | ToolFailure;

export interface Tool<I extends ObjectSchema = ObjectSchema, O extends z.ZodType = z.ZodType> {
  readonly [TOOL_BRAND]: true;
  readonly name: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  /** The contract id used with Toolgate, when known. */
  readonly contractId: string | undefined;
  /** The contract fields given to defineTool. */
  readonly contract: Readonly<ContractFields>;
  readonly definition: ToolDefinition;
  run(rawInput: unknown, options?: RunOptions): Promise<ToolResult<z.output<O>>>;
  /** The tool as a Toolgate contract document; `options` override `config.contract`. */
  toContract(options?: ContractFields): ToolContract;
}

export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Record<PropertyKey, unknown>)[TOOL_BRAND] === true;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function errorText(error: unknown): string {
  return clip(error instanceof Error ? error.message : describeValue(error), 500);
}

function outputMismatchMessage(name: string, issues: ValidationIssue[]): string {
  const listed = issues
    .slice(0, 8)
    .map((issue, index) => `(${index + 1}) ${issue.code}${issue.path === '$' ? '' : ` at ${issue.path}`}: ${clip(issue.message, 200)}.`);
  const more = issues.length > 8 ? ` …and ${issues.length - 8} more.` : '';
  const tail = ' Do not assume the action succeeded or failed; tell the user the tool returned an unexpected result.';
  const text = `${name} ran, but its result does not match its declared output schema, so it is not shown. ${listed.join(' ')}${more}`;
  return `${clip(text, MAX_LLM_MESSAGE_CHARS - tail.length)}${tail}`;
}

function errorPayload(error: unknown): { code: string; message: string } {
  const code = typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'tool_error';
  return { code, message: errorText(error) };
}

/** Toolgate answered the request with a refusal of it (a 4xx) or it was never sent: validate/post recorded nothing. */
function refusedUnrecorded(error: ToolgateError): boolean {
  return error.code === 'invalid_request' || (error.status >= 400 && error.status < 500);
}

function toolgateText(error: unknown): string {
  if (error instanceof ToolgateError) return `${error.code}: ${clip(error.message, 300)}`;
  return errorText(error);
}

export function defineTool<I extends ObjectSchema, O extends z.ZodType>(config: ToolConfig<I, O>): Tool<I, O> {
  const { name, description, input, output } = config;
  const owner = `Tool "${name}"`;
  if (!name) throw new TypeError('defineTool: name is required');
  if (input._zod.def.type !== 'object') {
    throw new TypeError(`${owner}: the input schema must be z.object({...}); tool arguments are a JSON object`);
  }
  assertSupportedSchema(input, 'input', owner);
  assertSupportedSchema(output, 'output', owner);
  const contractId = config.contract?.id ?? (TOOL_ID_PATTERN.test(name) ? name : undefined);
  if (config.toolgate && !contractId) {
    throw new TypeError(`${owner}: checking calls with Toolgate needs a contract id; set contract.id (e.g. "users.create")`);
  }
  const definition: ToolDefinition = { name, description, parameters: toJsonSchema(input, 'llm') };

  type Output = z.output<O>;
  type Extra = Omit<ToolFailure, 'isError' | 'content' | 'callId' | 'stage' | 'issues'>;
  const fail = (callId: string, stage: FailureStage, content: string, issues: ValidationIssue[] = [], extra: Extra = {}): ToolFailure => ({
    isError: true,
    content,
    callId,
    stage,
    issues,
    ...extra,
  });

  const execute = async (args: Record<string, unknown>, callId: string, signal: AbortSignal | undefined) => {
    const sideEffects: { id: string; [key: string]: unknown }[] = [];
    const context: ExecuteContext = { callId, signal, reportSideEffect: (id, details) => sideEffects.push({ ...details, id }) };
    try {
      return { ok: true as const, value: (await config.execute(args as z.output<I>, context)) as unknown, sideEffects };
    } catch (error) {
      return { ok: false as const, error, sideEffects };
    }
  };
  const executeFailed = (callId: string, error: unknown, extra: Extra) =>
    fail(
      callId,
      'execute',
      `${name} failed while running: ${errorText(error)}. The arguments were valid, so the problem is in the tool or a system it calls; retry only if the error says it is temporary, otherwise tell the user.`,
      [],
      { ...extra, error },
    );
  const checkOutput = (value: unknown) => {
    const parsed = output.safeParse(value, { reportInput: true });
    if (parsed.success) return { ok: true as const, value: parsed.data as Output };
    return { ok: false as const, issues: zodIssues({ issues: parsed.error.issues, intent: name, subject: 'result', schema: output }) };
  };

  async function runLocally(args: Record<string, unknown>, callId: string, signal: AbortSignal | undefined): Promise<ToolResult<Output>> {
    const ran = await execute(args, callId, signal);
    if (!ran.ok) return executeFailed(callId, ran.error, {});
    const checked = checkOutput(ran.value);
    if (!checked.ok) return fail(callId, 'output', outputMismatchMessage(name, checked.issues), checked.issues);
    return { isError: false, content: checked.value, callId };
  }

  async function runDelegated(
    client: ToolgateClient,
    args: Record<string, unknown>,
    callId: string,
    options: RunOptions,
  ): Promise<ToolResult<Output>> {
    const { signal } = options;
    if (!contractId) {
      return fail(
        callId,
        'toolgate',
        `${name} cannot be checked by Toolgate because it has no contract id; it did not run. Tell the user the tool is misconfigured.`,
      );
    }
    // No version unless the caller pins one: the server then checks the published version,
    // which is the one its approvers and policies are looking at.
    const base = { tool: contractId, version: options.version, call_id: callId, arguments: args, context: options.context };
    const tokens = { confirmation_token: options.confirmationToken, idempotency_key: options.idempotencyKey };
    const unreachable = (error: unknown, extra: Extra = {}) =>
      fail(
        callId,
        'toolgate',
        `Toolgate could not check this call to ${contractId} (${toolgateText(error)}); the tool did not run. Try again later.`,
        [],
        { ...extra, arguments: args, error },
      );

    let pre: ValidationResponse;
    try {
      pre = await client.validatePre({ ...base, ...tokens, approval_token: options.approvalToken }, { signal });
    } catch (error) {
      return unreachable(error);
    }

    // The arguments the tool runs with: the model's, unless an approver edited them or a policy
    // transformed them; the token and the post check are bound to exactly these.
    let callArgs = args;
    if ((pre.decision === 'require_approval' || pre.decision === 'escalate') && pre.approval) {
      const ref = pre.approval;
      const pollUrl = `${client.baseUrl}${ref.poll_url}`;
      if (!options.waitForApproval) {
        const refusal = pre.llm_message ?? `The call to ${contractId} needs an approval.`;
        return fail(
          callId,
          'approval',
          `${refusal} Approval ${ref.id} is pending (status: ${pollUrl}); the call did not run and will run once approved.`,
          pre.errors,
          { pre, approval: ref, arguments: args },
        );
      }
      const timeoutMs = typeof options.waitForApproval === 'object' ? options.waitForApproval.timeoutMs : undefined;
      let approval;
      try {
        approval = await client.waitForApproval(ref.id, { timeoutMs, signal });
      } catch (error) {
        return unreachable(error, { pre, approval: ref });
      }
      const seen: ApprovalRef = { ...ref, status: approval.status };
      if (approval.status !== 'approved' || !approval.approval_token) {
        const content =
          approval.status === 'denied'
            ? `An approver denied this call to ${contractId}${approval.comment ? ` ("${clip(approval.comment, 200)}")` : ''}. Do not retry; tell the user the call was denied.`
            : approval.status === 'expired'
              ? `The approval for this call to ${contractId} expired before anyone decided; the call did not run. Ask the user whether to request approval again.`
              : approval.status === 'pending'
                ? `The call to ${contractId} is still waiting for approval ${ref.id} (status: ${pollUrl}); it did not run. Tell the user it awaits approval and do not repeat it meanwhile.`
                : approval.token_used
                  ? `The approval for this call to ${contractId} was already used; the call did not run again. Do not repeat it.`
                  : `The approval for this call to ${contractId} lapsed before the call could use it; the call did not run. Ask the user whether to request approval again.`;
        return fail(callId, 'approval', content, pre.errors, { pre, approval: seen, arguments: args });
      }
      if (approval.edited && approval.arguments) callArgs = approval.arguments;
      try {
        pre = await client.validatePre({ ...base, arguments: callArgs, ...tokens, approval_token: approval.approval_token }, { signal });
      } catch (error) {
        return unreachable(error, { approval: seen });
      }
    }

    if (pre.decision === 'transform' && pre.arguments) callArgs = pre.arguments;
    else if (pre.decision !== 'allow') {
      const content = pre.llm_message ?? `The call to ${contractId} was refused (decision: ${pre.decision}); it did not run.`;
      return fail(callId, 'pre', content, pre.errors, { pre, approval: pre.approval, arguments: args });
    }

    const post = async (
      outcome: { result: unknown } | { error: unknown },
      sideEffects: { id: string }[],
    ): Promise<{ response?: ValidationResponse; error?: ToolgateError }> => {
      const send = (sent: { result: unknown } | { error: unknown }) =>
        client.validatePost(
          {
            ...base,
            arguments: callArgs,
            version: pre.version ?? base.version,
            ...sent,
            side_effects: sideEffects.length > 0 ? sideEffects : undefined,
          } as Parameters<ToolgateClient['validatePost']>[0],
          { signal },
        );
      let error: ToolgateError;
      try {
        return { response: await send(outcome) };
      } catch (caught) {
        error =
          caught instanceof ToolgateError
            ? caught
            : new ToolgateError({ status: 0, code: 'network_error', message: errorText(caught), cause: caught });
      }
      if (!('result' in outcome) || !refusedUnrecorded(error)) return { error };
      // The result itself was refused (too large, not sendable as JSON) and nothing was recorded:
      // the trace still gets its post record, saying why it holds no result.
      const code = error.status === 413 ? 'result_too_large' : 'result_unchecked';
      try {
        return {
          error,
          response: await send({ error: { code, message: clip(`The result could not be checked: ${toolgateText(error)}`, 500) } }),
        };
      } catch {
        return { error };
      }
    };

    // What `execute` gets; validate/post reports the arguments Toolgate cleared (callArgs).
    let runArgs = callArgs;
    if (callArgs !== args) {
      // Toolgate changed the arguments (an approver's edit, a policy's transform): they passed the
      // contract, but `execute` is typed by this tool's own schema, which may differ (stricter,
      // with defaults). They are parsed by it like the model's, and a call it refuses does not run.
      const reparsed = input.safeParse(callArgs, { reportInput: true });
      if (!reparsed.success) {
        const issues = zodIssues({ issues: reparsed.error.issues, intent: name, subject: 'arguments', schema: input });
        return fail(callId, 'pre', reshapedArgumentsMessage(contractId), issues, { pre, arguments: callArgs });
      }
      runArgs = reparsed.data as Record<string, unknown>;
    }
    const ran = await execute(runArgs, callId, signal);
    if (!ran.ok) {
      const reported = await post({ error: errorPayload(ran.error) }, ran.sideEffects);
      return executeFailed(callId, ran.error, { pre, post: reported.response, arguments: callArgs });
    }
    const checked = checkOutput(ran.value);
    if (!checked.ok) {
      // Recorded too: a tool that breaks its own output schema is exactly what evidence is for.
      const reported = await post({ result: ran.value }, ran.sideEffects);
      return fail(callId, 'output', outputMismatchMessage(name, checked.issues), checked.issues, {
        pre,
        post: reported.response,
        arguments: callArgs,
      });
    }
    const reported = await post({ result: checked.value }, ran.sideEffects);
    if (reported.error || !reported.response) {
      // Fail closed, as the framework adapters do: a result Toolgate did not check is not handed on.
      const content = `${name} ran (so its side effects may have happened), but Toolgate could not check its result (${toolgateText(reported.error ?? 'no answer')}), so it is not shown. Do not run it again to get another one; tell the user the outcome is unknown.`;
      return fail(callId, 'post', content, [], { pre, post: reported.response, arguments: callArgs, error: reported.error });
    }
    const postResponse = reported.response;
    if (!postResponse.valid) {
      const content =
        `${name} ran (so its side effects may have happened), but Toolgate refused its result, so it is not shown. ${postResponse.llm_message ?? ''}`.trim();
      return fail(callId, 'post', content, postResponse.errors, { pre, post: postResponse, arguments: callArgs });
    }
    return { isError: false, content: checked.value, callId, pre, post: postResponse };
  }

  return {
    [TOOL_BRAND]: true,
    name,
    description,
    input,
    output,
    contractId,
    contract: { ...config.contract },
    definition,
    async run(rawInput, options = {}) {
      const callId = options.callId ?? globalThis.crypto.randomUUID();
      const parsed = input.safeParse(rawInput, { reportInput: true });
      if (!parsed.success) {
        const issues = zodIssues({ issues: parsed.error.issues, intent: name, subject: 'arguments', schema: input });
        return fail(callId, 'input', llmMessage({ tool: name, errors: issues, warnings: [] }), issues);
      }
      const args = parsed.data as Record<string, unknown>;
      const client = options.toolgate === undefined ? config.toolgate : (options.toolgate ?? undefined);
      return client ? runDelegated(client, args, callId, options) : runLocally(args, callId, options.signal);
    },
    toContract(options = {}) {
      return zodToContract({ description, ...config.contract, id: contractId, ...definedOnly(options), input, output });
    },
  };
}

/** `{owner: undefined}` in an override means "not given", not "remove the declared owner". */
function definedOnly(fields: ContractFields): ContractFields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
