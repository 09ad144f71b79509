import type { RequestOptions, ToolgateClient } from '../create-toolgate-client.ts';
import { ToolgateError } from '../toolgate-error.ts';
import type { Approval, ApprovalRef, CallContext, ValidationResponse } from '../wire-types.ts';
import { ToolgateToolError } from './toolgate-tool-error.ts';

/** What the adapter was told to check every call with. */
export interface GateSettings {
  client: ToolgateClient;
  context: CallContext | undefined;
  traceparent: string | undefined;
  /** How long a call whose Toolgate approval is known but undecided waits for the decision. */
  approvalWaitMs: number;
}

export interface GateCall {
  contractId: string;
  /** The AI SDK's tool call id: Toolgate's call_id, so pre, post and evidence share one trace. */
  callId: string;
  args: Record<string, unknown>;
  /** A Toolgate approval this call was held for before (a resumed run). */
  approvalId: string | undefined;
  signal: AbortSignal | undefined;
}

/** Where validate/pre left a call: run it (with these arguments), hold it for an approval, or refuse it. */
export type Gated =
  | { kind: 'run'; args: Record<string, unknown>; pre: ValidationResponse }
  | { kind: 'hold'; approval: ApprovalRef; error: ToolgateToolError }
  | { kind: 'refuse'; error: ToolgateToolError };

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function reasonOf(error: unknown): string {
  if (error instanceof ToolgateError) return `${error.code}: ${clip(error.message, 300)}`;
  return clip(error instanceof Error ? error.message : String(error), 300);
}

const approvalRef = (approval: Approval): ApprovalRef => ({
  id: approval.id,
  status: approval.status,
  expires_at: approval.expires_at,
  poll_url: `/api/v1/approvals/${encodeURIComponent(approval.id)}`,
});

/**
 * validate/pre for one AI SDK tool call. A call Toolgate held before is first looked up by its
 * approval: approved, it is retried with the approval's single-use token (and the approver's
 * edited arguments, if any); undecided, it stays held; denied or expired, it is refused. Any other
 * call asks validate/pre with `redeem_approval`, so an approved, unused approval of exactly this
 * call (same tool, arguments, user and key) is used even when the caller lost its id. Nothing here
 * throws except the caller's own abort: a Toolgate that cannot be asked refuses the call.
 */
export async function gateCall(settings: GateSettings, call: GateCall): Promise<Gated> {
  const { client } = settings;
  const { contractId, callId, signal } = call;
  const request: RequestOptions = { signal, traceparent: settings.traceparent };
  const base = { tool: contractId, call_id: callId, context: settings.context };
  const refuse = (message: string, extra: { response?: ValidationResponse; approval?: ApprovalRef; cause?: unknown } = {}): Gated => ({
    kind: 'refuse',
    error: new ToolgateToolError({ code: 'refused', message, toolCallId: callId, contractId, ...extra }),
  });

  const fromPre = (pre: ValidationResponse, args: Record<string, unknown>): Gated => {
    if (pre.decision === 'allow') return { kind: 'run', args, pre };
    if (pre.decision === 'transform' && pre.arguments) return { kind: 'run', args: pre.arguments, pre };
    if ((pre.decision === 'require_approval' || pre.decision === 'escalate') && pre.approval) {
      const approval = pre.approval;
      const refusal = pre.llm_message ?? `The call to ${contractId} needs an approval.`;
      const message = `${refusal} Toolgate approval ${approval.id} is pending; the call did not run. Tell the user it awaits an approver's decision and do not repeat it meanwhile.`;
      return {
        kind: 'hold',
        approval,
        error: new ToolgateToolError({ code: 'approval_pending', message, toolCallId: callId, contractId, response: pre, approval }),
      };
    }
    return refuse(pre.llm_message ?? `The call to ${contractId} was refused (decision: ${pre.decision}); it did not run.`, {
      response: pre,
    });
  };

  const fromApproval = async (approval: Approval): Promise<Gated> => {
    const ref = approvalRef(approval);
    if (approval.status === 'approved' && approval.approval_token) {
      const args = approval.edited && approval.arguments ? approval.arguments : call.args;
      const pre = await client.validatePre({ ...base, arguments: args, approval_token: approval.approval_token }, request);
      return fromPre(pre, args);
    }
    if (approval.status === 'pending') {
      const message = `The call to ${contractId} is still waiting for Toolgate approval ${approval.id}; it did not run. Tell the user it awaits an approver's decision and do not repeat it meanwhile.`;
      return {
        kind: 'hold',
        approval: ref,
        error: new ToolgateToolError({ code: 'approval_pending', message, toolCallId: callId, contractId, approval: ref }),
      };
    }
    const message =
      approval.status === 'denied'
        ? `An approver denied this call to ${contractId}${approval.comment ? ` ("${clip(approval.comment, 200)}")` : ''}; it did not run. Do not retry; tell the user the call was denied.`
        : approval.status === 'expired'
          ? `The approval for this call to ${contractId} expired before anyone decided; the call did not run. Ask the user whether to request approval again.`
          : `The approval for this call to ${contractId} was already used; the call did not run again. Do not repeat it.`;
    return refuse(message, { approval: ref });
  };

  try {
    if (call.approvalId) {
      const approval = await lookUpApproval(settings, call.approvalId, request);
      // An approval of another tool (or one Toolgate does not know) says nothing about this call.
      if (approval && approval.tool === contractId) return await fromApproval(approval);
    }
    const pre = await client.validatePre({ ...base, arguments: call.args, redeem_approval: true }, request);
    return fromPre(pre, call.args);
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      kind: 'refuse',
      error: new ToolgateToolError({
        code: 'unreachable',
        message: `Toolgate could not check this call to ${contractId} (${reasonOf(error)}); the tool did not run. Try again later.`,
        toolCallId: callId,
        contractId,
        cause: error,
      }),
    };
  }
}

async function lookUpApproval(settings: GateSettings, id: string, request: RequestOptions): Promise<Approval | undefined> {
  try {
    if (settings.approvalWaitMs > 0) return await settings.client.waitForApproval(id, { ...request, timeoutMs: settings.approvalWaitMs });
    return await settings.client.getApproval(id, request);
  } catch (error) {
    if (error instanceof ToolgateError && error.status === 404) return undefined;
    throw error;
  }
}
