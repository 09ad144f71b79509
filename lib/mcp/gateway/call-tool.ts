import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readTraceparent } from '../../evidence/trace-id';
import { isPlainObject } from '../../json';
import type { Approval, McpGatewayTool, ValidationResponse } from '@toolgate/sdk/core';
import { mcpContractId } from '../tool-definition';
import { log } from '../../log';
import { describeNumberFinding } from '../../validation/json-numbers';
import { asFinding, exactJson, upstreamNumbers, type UpstreamNumbersData } from './upstream-numbers';
import { CallRefusedError, type GateEngine, type ToolReport } from './gate-engine';
import type { Upstream } from './upstream';

export interface CallToolLimits {
  /** How long the upstream may take to answer one tools/call. */
  callTimeoutMs: number;
  /** Results larger than this (as JSON) are withheld from the model. */
  maxResultBytes: number;
}

export interface ToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The `_meta` key under which an agent may say whom it acts for (the call context: user_id, roles, …). */
export const CONTEXT_META_KEY = 'io.toolgate/context';

/** At most this many numbers are named to the model (as validate/pre and post list at most 20). */
const MAX_LISTED_NUMBERS = 20;

/** A tool result the model reads as a failure it can act on (MCP: errors as tool results). */
export function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * One tools/call through the gate, in one trace: validate/pre (drift, contract, policies,
 * approvals) → the upstream, sent at most once → validate/post on what came back. Every way this
 * can end is an MCP tool result; nothing the agent or the upstream sends makes it throw, and
 * nothing in a result's text is ever read as an instruction.
 */
export async function gateToolCall(options: {
  server: string;
  engine: GateEngine;
  upstream: Upstream;
  report: ToolReport;
  limits: CallToolLimits;
  request: ToolCallRequest;
  signal?: AbortSignal;
}): Promise<CallToolResult> {
  const { server, engine, request, report } = options;
  const entry = report.tools.find((tool) => tool.name === request.name);
  const tool = entry?.contract_id ?? mcpContractId(server, request.name);
  const callId = `mcp_${randomUUID()}`;
  const meta = request._meta;
  const traceparent = readTraceparent(typeof meta?.traceparent === 'string' ? meta.traceparent : null);
  const context = isPlainObject(meta?.[CONTEXT_META_KEY]) ? (meta[CONTEXT_META_KEY] as Record<string, unknown>) : undefined;
  let args = request.arguments;

  const pre = (callArgs: Record<string, unknown>) =>
    engine.pre(
      {
        tool,
        call_id: callId,
        arguments: callArgs,
        ...(context ? { context } : {}),
        redeem_approval: true,
        mcp_server: server,
        ...(entry?.definition_hash ? { mcp_definition_hash: entry.definition_hash } : {}),
      },
      traceparent,
    );
  // Before deciding: a call the upstream cannot take must not wait for an approval first.
  if (!entry) return refusal(`${request.name} is not a tool of ${server}.`);
  let decided: ValidationResponse;
  try {
    decided = await pre(args);
    if (decided.decision === 'require_approval' || decided.decision === 'escalate') {
      const held = await awaitApproval(engine, decided, report.server.approval_wait_seconds * 1000, options.signal);
      if ('refusal' in held) return held.refusal;
      args = held.arguments ?? args;
      decided = await pre(args);
    }
  } catch (error) {
    if (error instanceof CallRefusedError)
      return refusal(
        `Toolgate refused to check this call, so it was not made: ${options.upstream.errorText(error)}. The same call would be refused again: correct its arguments or its context (_meta["${CONTEXT_META_KEY}"]) instead of retrying it.`,
      );
    return refusal(`Toolgate could not check this call, so it was not made: ${options.upstream.errorText(error)}. Try again later.`);
  }
  if (decided.decision !== 'allow' && decided.decision !== 'transform')
    return refusal(decided.llm_message ?? `The call of ${request.name} was refused (${decided.errors[0]?.code ?? decided.decision}).`);
  if (decided.decision === 'transform' && decided.arguments) args = decided.arguments;

  return forward({ ...options, entry, tool, version: decided.version, callId, args, traceparent, context });
}

/** A call validate/pre let through, on its way to the upstream: what recording its outcome needs. */
interface ForwardedCall {
  server: string;
  engine: GateEngine;
  upstream: Upstream;
  limits: CallToolLimits;
  request: ToolCallRequest;
  signal?: AbortSignal;
  entry: McpGatewayTool;
  tool: string;
  /** The contract version validate/pre decided with; validate/post checks the result against the same one. */
  version: string | null;
  callId: string;
  args: Record<string, unknown>;
  traceparent: string | null;
  context: Record<string, unknown> | undefined;
}

/** The fields of the validate/post body that name the call, before its outcome. */
function postedCall(call: ForwardedCall) {
  return {
    tool: call.tool,
    ...(call.version ? { version: call.version } : {}),
    call_id: call.callId,
    arguments: call.args,
    ...(call.context ? { context: call.context } : {}),
  };
}

/** validate/post takes whole milliseconds up to a day. */
const postedExecutionMs = (ms: number) => Math.min(86_400_000, Math.max(0, Math.round(ms)));

async function forward(options: ForwardedCall): Promise<CallToolResult> {
  const { engine, limits, traceparent, server } = options;
  const record = (outcome: { result: unknown } | { error: unknown }, executionMs: number) =>
    engine.post(
      {
        ...postedCall(options),
        ...outcome,
        execution_ms: postedExecutionMs(executionMs),
        mcp_server: server,
      } as Parameters<GateEngine['post']>[0],
      traceparent,
    );
  const upstreamMeta: Record<string, unknown> = {};
  const meta = options.request._meta;
  if (traceparent) upstreamMeta.traceparent = traceparent;
  if (traceparent && typeof meta?.tracestate === 'string' && meta.tracestate.length <= 512) upstreamMeta.tracestate = meta.tracestate;

  const started = performance.now();
  let result: CallToolResult;
  // The upstream call has its own signal, following the agent's only while it runs: the SDK
  // keeps its abort listener after a request settles, and the agent's signal fires when its
  // request ends, which would send the upstream a cancellation for a call already answered.
  const upstreamCall = new AbortController();
  const cancel = () => upstreamCall.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    result = await options.upstream.callTool(
      { name: options.request.name, arguments: options.args, ...(Object.keys(upstreamMeta).length > 0 ? { _meta: upstreamMeta } : {}) },
      { timeoutMs: limits.callTimeoutMs, signal: upstreamCall.signal },
    );
  } catch (error) {
    const numbers = upstreamNumbers(error);
    if (numbers) return refuseResultNumbers({ ...options, numbers, executionMs: performance.now() - started });
    const text = `The ${server} server did not complete ${options.request.name}: ${options.upstream.errorText(error)}. It was sent once and not retried; it may or may not have taken effect.`;
    await record({ error: { code: 'upstream_failed', message: text } }, performance.now() - started).catch(() => undefined);
    return refusal(text);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  const executionMs = performance.now() - started;
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size > limits.maxResultBytes) {
    const text = `The result of ${options.request.name} was withheld: ${size} bytes, over the gateway's limit of ${limits.maxResultBytes}. Ask for less (narrower arguments).`;
    await record({ error: { code: 'result_too_large', message: text, bytes: size } }, executionMs).catch(() => undefined);
    return refusal(text);
  }
  const payload = result.structuredContent ?? { content: result.content };
  let checked: ValidationResponse;
  try {
    checked = await record(result.isError ? { error: payload } : { result: payload }, executionMs);
  } catch (error) {
    return refusal(
      `Toolgate could not check the result of ${options.request.name}, so it was withheld: ${options.upstream.errorText(error)}.`,
    );
  }
  if (checked.decision === 'deny' && options.entry.invalid_result !== 'pass_through')
    return refusal(checked.llm_message ?? `The result of ${options.request.name} did not pass its contract and was withheld.`);
  return result;
}

/**
 * The upstream answered with numbers a double cannot hold (9007199254740993, 1e400, 1e-400):
 * the answer never reaches the agent changed. The model gets an isError result saying which
 * path held which number (paths in the MCP result, `$.result.structuredContent.id`), and
 * validate/post gets the answer as the upstream sent it, as text, so that it refuses it
 * (AXAG_NUMBER_UNREPRESENTABLE) and records every number with all its digits.
 */
async function refuseResultNumbers(
  options: ForwardedCall & { numbers: UpstreamNumbersData; executionMs: number },
): Promise<CallToolResult> {
  const { numbers, request, limits } = options;
  const name = request.name;
  const isError = numbers.result === undefined || (isPlainObject(numbers.result) && numbers.result.isError === true);
  const answer = numbers.result !== undefined ? numbers.result : (numbers.error ?? null);
  const executionMs = postedExecutionMs(options.executionMs);
  const answerText = exactJson(answer, numbers.numbers);
  const base = postedCall(options);
  const size = Buffer.byteLength(answerText);
  if (size > limits.maxResultBytes) {
    const text = `The result of ${name} was withheld: ${size} bytes, over the gateway's limit of ${limits.maxResultBytes}. Ask for less (narrower arguments).`;
    await options.engine
      .post(
        { ...base, error: { code: 'result_too_large', message: text, bytes: size }, execution_ms: executionMs, mcp_server: options.server },
        options.traceparent,
      )
      .catch(() => undefined);
    return refusal(text);
  }
  const listed = numbers.numbers.slice(0, MAX_LISTED_NUMBERS);
  const where = listed.map((number, index) => `(${index + 1}) ${describeNumberFinding(asFinding(number))}.`).join(' ');
  const more = numbers.numbers.length > listed.length ? ` …and ${numbers.numbers.length - listed.length} more.` : '';
  const text =
    `The result of ${name} was withheld (AXAG_NUMBER_UNREPRESENTABLE): it holds ${numbers.numbers.length === 1 ? 'a number' : `${numbers.numbers.length} numbers`} a double cannot hold exactly, and Toolgate does not pass ${numbers.numbers.length === 1 ? 'it' : 'them'} on changed. ${where}${more} ` +
    `The ${name} call ran, but do not use its result or call ${name} again for it; have the tool report such numbers as strings.`;
  // Recorded as validate/post refuses a result holding such numbers: a deny, each number as sent.
  // The answer is the whole MCP result (the number may be outside structuredContent, in _meta).
  const body = `{${JSON.stringify(base).slice(1, -1)},${JSON.stringify(isError ? 'error' : 'result')}:${answerText},"execution_ms":${executionMs},"mcp_server":${JSON.stringify(options.server)}}`;
  try {
    await options.engine.postText(body, options.traceparent);
  } catch (error) {
    log.warn('mcp result not recorded', { server: options.server, tool: options.tool, error: options.upstream.errorText(error) });
  }
  return refusal(text);
}

type Held = { arguments?: Record<string, unknown> } | { refusal: CallToolResult };

/** Waits for the approval the call needs, up to the server's wait; past it, says so and how to go on. */
async function awaitApproval(engine: GateEngine, decided: ValidationResponse, waitMs: number, signal?: AbortSignal): Promise<Held> {
  const pending = decided.approval;
  if (!pending) return { refusal: refusal(decided.llm_message ?? 'This call needs an approval that could not be requested.') };
  let approval: Approval | null = null;
  if (waitMs > 0) approval = await engine.waitForApproval(pending.id, waitMs, signal);
  if (!approval || approval.outcome === 'pending')
    return {
      refusal: refusal(
        `This call needs a person's approval and awaits approval ${pending.id} (it expires at ${pending.expires_at}). Try again later with the same arguments: once it is approved, the same call goes through.`,
      ),
    };
  if (approval.outcome === 'denied') {
    const why =
      approval.status === 'expired' ? 'expired before anyone decided' : `was denied${approval.comment ? `: ${approval.comment}` : ''}`;
    return { refusal: refusal(`Approval ${approval.id} for this call ${why}. The call was not made; do not repeat it unchanged.`) };
  }
  return approval.edited && approval.arguments ? { arguments: approval.arguments } : {};
}
