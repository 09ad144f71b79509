import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readTraceparent } from '../../evidence/trace-id';
import { isPlainObject } from '../../json';
import type { Approval, McpGatewayTool, ValidationResponse } from '@toolgate/sdk/core';
import { mcpContractId } from '../tool-definition';
import type { GateEngine, ToolReport } from './gate-engine';
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
    return refusal(`Toolgate could not check this call, so it was not made: ${options.upstream.errorText(error)}. Try again later.`);
  }
  if (decided.decision !== 'allow' && decided.decision !== 'transform')
    return refusal(decided.llm_message ?? `The call of ${request.name} was refused (${decided.errors[0]?.code ?? decided.decision}).`);
  if (decided.decision === 'transform' && decided.arguments) args = decided.arguments;

  return forward({ ...options, entry, tool, version: decided.version, callId, args, traceparent, context });
}

async function forward(options: {
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
}): Promise<CallToolResult> {
  const { engine, limits, tool, callId, args, traceparent, server } = options;
  const record = (outcome: { result: unknown } | { error: unknown }, executionMs: number) =>
    engine.post(
      {
        tool,
        ...(options.version ? { version: options.version } : {}),
        call_id: callId,
        arguments: args,
        ...(options.context ? { context: options.context } : {}),
        ...outcome,
        execution_ms: Math.min(86_400_000, Math.max(0, Math.round(executionMs))),
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
      { name: options.request.name, arguments: args, ...(Object.keys(upstreamMeta).length > 0 ? { _meta: upstreamMeta } : {}) },
      { timeoutMs: limits.callTimeoutMs, signal: upstreamCall.signal },
    );
  } catch (error) {
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
