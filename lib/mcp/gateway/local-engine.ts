import { newRequestId } from '../../evidence/first-record-id';
import type { Caller } from '../../auth/caller';
import { getInstanceSecret } from '../../auth/instance-secret';
import { getApprovalOrThrow } from '../../approvals/get-approval-or-throw';
import { approvalWaitsEnded, waitForApprovalChange } from '../../approvals/wait-for-approval';
import { PreCallRequestSchema, validatePreCall } from '../../validation/validate-pre-call';
import { PostCallRequestSchema, validatePostCall } from '../../validation/validate-post-call';
import { findUnrepresentableNumbers } from '../../validation/json-numbers';
import { CHECKED_NUMBER_FIELDS, refuseUnrepresentableNumbers } from '../../validation/refuse-unrepresentable-numbers';
import type { Approval } from '@toolgate/sdk/core';
import { reportMcpTools } from '../tools/report-mcp-tools';
import { CallRefusedError, type GateEngine } from './gate-engine';
import { zodIssueText } from '../../validation/zod-issue-text';

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

/**
 * The engine of the hosted gateway: the same functions validate/pre and validate/post run,
 * called in process with the agent's API key as the caller. Requests are parsed by the same
 * schemas as the HTTP bodies, so a call through the gateway is checked exactly like one sent
 * to the API.
 */
export function createLocalEngine(options: { caller: KeyCaller; server: string }): GateEngine {
  const { caller, server } = options;
  return {
    reportTools: (tools) =>
      reportMcpTools({
        tenantId: caller.tenantId,
        server,
        transport: 'http',
        tools,
        actor: { kind: 'api_key', apiKeyId: caller.apiKeyId },
      }),
    pre: (request, traceparent) => {
      const parsed = PreCallRequestSchema.safeParse(request);
      if (!parsed.success) {
        throw new CallRefusedError(`Invalid call: ${zodIssueText(parsed.error.issues[0])}`);
      }
      return validatePreCall({ caller, request: parsed.data, ...newRequestId(), traceparent });
    },
    post: (request, traceparent) =>
      validatePostCall({ caller, request: PostCallRequestSchema.parse(request), ...newRequestId(), traceparent }),
    // As POST /api/v1/validate/post reads such a body (lib/api/json-body.ts, handlers/validate.ts).
    postText: async (body, traceparent) => {
      const request = PostCallRequestSchema.parse(JSON.parse(body));
      const findings = findUnrepresentableNumbers(body);
      const fields: readonly string[] = CHECKED_NUMBER_FIELDS;
      if (findings.length > 0 && findings.every((finding) => fields.includes(String(finding.segments[0]))))
        return refuseUnrepresentableNumbers({
          caller,
          kind: 'post',
          request,
          numbers: { text: body, findings },
          ...newRequestId(),
          traceparent,
        });
      return validatePostCall({ caller, request, ...newRequestId(), traceparent });
    },
    waitForApproval: async (id, waitMs, signal) => {
      const deadline = Date.now() + waitMs;
      const secret = await getInstanceSecret();
      for (;;) {
        const view = await getApprovalOrThrow({ tenantId: caller.tenantId, id, secret, apiKeyId: caller.apiKeyId });
        const left = deadline - Date.now();
        if (view.status !== 'pending' || left <= 0 || signal?.aborted || approvalWaitsEnded()) return view as Approval;
        await waitForApprovalChange({ tenantId: caller.tenantId, id, waitMs: left, signal });
      }
    },
  };
}
