import { z } from 'zod';
import type { FirstRecordId } from '../evidence/first-record-id';
import { plainObject } from '../json';
import { CallContextSchema } from './call-context';
import type { Caller } from '../auth/caller';
import { hashCanonical } from '../contracts/canonical-json';
import { resolveContract } from '../contracts/resolve-contract';
import { TokenAlreadyUsedError } from '../approvals/consume-call-token';
import type { CallBinding } from '../approvals/call-token';
import { recordEvidence } from '../evidence/record-evidence';
import { wellFormed } from '../evidence/chain-records';
import { redactArguments } from '../evidence/redact-arguments';
import { redactIssueValues } from '../evidence/redact-issues';
import { retainedPayloadJson } from '../retention/retained-payload';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';
import { traceIdFor } from '../evidence/trace-id';
import { findApprovedCallToken } from '../approvals/find-approved-call-token';
import { loadPolicies } from '../policies/load-policies';
import { policiesMayHoldTool } from '../policies/policy-refuses-tool';
import { McpServerNameSchema } from './call-context';
import { mcpDriftIssue } from './mcp-drift-issue';
import { checkPreCall } from './check-pre-call';
import { checkDuplicateCall } from './check-duplicate-call';
import { checkPresentedTokens } from './check-presented-tokens';
import { makeIssue } from './error-codes';
import { evaluateCallPolicies } from './evaluate-call-policies';
import { recordPreCall, type PreCallBase, type PreCallRecording } from './record-pre-call';
import { unresolvedContractIssue } from './unresolved-contract-issue';
import { buildValidationResponse, type ValidationResponse } from './validation-response';
import { HistoryConflictError } from '../history/history-ledger';
import { AppError } from '../errors';
import { inTurn } from './in-turn';

/** How often a call is decided again when its history changed under it before giving up (503). */
const HISTORY_ATTEMPTS = 20;

export const PreCallRequestSchema = z
  .object({
    tool: z.string().min(1).max(128).describe('The tool id, e.g. cart.begin_checkout.'),
    version: z.string().min(1).max(64).optional().describe('Pin a published contract version; default: the latest.'),
    call_id: z.string().min(1).max(128).describe("The agent's id for this tool call; the post call uses the same one."),
    arguments: plainObject('The arguments the model proposed.'),
    context: CallContextSchema.default({}),
    confirmation_token: z.string().min(1).max(512).optional(),
    approval_token: z.string().min(1).max(512).optional(),
    idempotency_key: z.string().min(1).max(256).optional(),
    redeem_approval: z
      .boolean()
      .optional()
      .describe(
        'When no approval_token is sent: redeem an approved, unused approval of exactly this call (tool, version, arguments, user) that this API key asked for, as if its token were sent. What the MCP gateway does, so the agent never handles tokens.',
      ),
    mcp_server: McpServerNameSchema.optional().describe('The MCP server the call goes through; recorded with the evidence.'),
    mcp_definition_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .describe(
        "With mcp_server: the hash of the tool's definition as the gateway's upstream lists it now (its tools report answers it); a call to an upstream whose definition is not the pinned one is refused as AXAG_TOOL_DEFINITION_CHANGED.",
      ),
  })
  .strict();

export type PreCallRequest = z.infer<typeof PreCallRequestSchema>;

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

/**
 * The request with its call id and end user id as the database stores them: a NUL or a lone
 * surrogate (JSON carries both) becomes U+FFFD, the mapping evidence uses (chain-records.ts).
 * Done once, up front, so the binding, the token checks, the duplicate check, policies and
 * history, and the approval row all see one value: PostgreSQL text cannot hold a NUL (the
 * approval's insert and every lookup by user failed), and both databases stored U+FFFD for a
 * lone surrogate while the token was bound to the raw string, so an approved call never redeemed.
 */
function withWellFormedIds(request: PreCallRequest): PreCallRequest {
  const callId = wellFormed(request.call_id);
  const userId = request.context.user_id === undefined ? undefined : wellFormed(request.context.user_id);
  if (callId === request.call_id && userId === request.context.user_id) return request;
  return {
    ...request,
    call_id: callId,
    context: userId === request.context.user_id ? request.context : { ...request.context, user_id: userId },
  };
}

/**
 * validate/pre: every pre-execution and execution-time check of a proposed tool call, then the
 * decision, committed as evidence before it is returned.
 */
export async function validatePreCall(options: {
  caller: KeyCaller;
  request: PreCallRequest;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
}): Promise<ValidationResponse> {
  const started = performance.now();
  const { caller, request: sent } = options;
  const request = withWellFormedIds(sent);
  const tenantId = caller.tenantId;
  const args = request.arguments;
  const argsHash = hashCanonical(args);
  // From the call id as sent, as validate/post derives it, so the two records of a call share a trace.
  const traceId = traceIdFor(tenantId, sent.call_id);
  const base: PreCallBase = {
    tenantId,
    kind: 'pre',
    requestId: options.requestId,
    traceId,
    callId: request.call_id,
    w3cTraceparent: options.traceparent,
    apiKeyId: caller.apiKeyId,
    tool: request.tool,
    argsHash,
    idempotencyKey: request.idempotency_key ?? null,
    mcpServer: request.mcp_server ?? null,
  };

  const resolved = await resolveContract({ tenantId, tool: request.tool, version: request.version });
  if (!resolved.found) {
    const issue = unresolvedContractIssue(resolved.reason, request.tool, request.version);
    const evidence = await recordEvidence({
      ...base,
      recordId: options.firstRecordId?.take(),
      decision: 'deny',
      valid: false,
      errors: [issue],
      warnings: [],
      durationMs: performance.now() - started,
    });
    return buildValidationResponse({
      tool: request.tool,
      callId: sent.call_id,
      traceId,
      evidenceId: evidence.id,
      errors: [issue],
      warnings: [],
      decision: 'deny',
    });
  }

  const resolvedContract = resolved.contract;
  const { compiled } = resolvedContract;
  const annotations = compiled.document.annotations;
  // The tenant's settings (retention, sensitive paths, approval expiry, duplicate window), from memory.
  const settings = await getRuntimeSettings(tenantId);
  const sensitive = mergeSensitivePaths(compiled.document.sensitive, settings.sensitivePaths);
  // The user boundary compares the arguments with the context as the agent sent both.
  const { errors, warnings } = checkPreCall({ contract: compiled, arguments: args, context: sent.context });
  if (request.mcp_server) {
    const drift = await mcpDriftIssue({
      tenantId,
      server: request.mcp_server,
      tool: request.tool,
      ...(request.mcp_definition_hash ? { definitionHash: request.mcp_definition_hash } : {}),
    });
    if (drift) errors.unshift(drift);
  }
  if (resolved.contract.deprecated && !warnings.some((w) => w.code === 'AXAG_CONTRACT_DEPRECATED')) {
    warnings.push(
      makeIssue('AXAG_CONTRACT_DEPRECATED', {
        intent: request.tool,
        message: `${request.tool}@${resolved.contract.version} is deprecated.`,
      }),
    );
  }

  const binding: CallBinding = {
    tenantId,
    tool: request.tool,
    contractVersion: resolved.contract.version,
    argsHash,
    userId: request.context.user_id ?? null,
  };
  // Looked up only when some call of this tool could be held: most calls need no approval.
  const mayBeHeld = () =>
    annotations.approval_required
      ? Promise.resolve(true)
      : loadPolicies(tenantId).then((p) => policiesMayHoldTool(p.enforced, request.tool));
  const approvalToken =
    request.approval_token ??
    (request.redeem_approval && (await mayBeHeld()) ? await findApprovedCallToken({ binding, apiKeyId: caller.apiKeyId }) : undefined);
  const redeemsFoundApproval = request.approval_token === undefined && approvalToken !== undefined;
  const presented = await checkPresentedTokens({
    tool: request.tool,
    confirmationToken: request.confirmation_token,
    approvalToken,
    annotations,
    binding,
    apiKeyId: caller.apiKeyId,
  });
  // A token redeem_approval found passed its check when it was found: failing it now (used,
  // expired) means another call redeemed the approval, or it expired, in between. The call then
  // has no approval, as one made a moment later finds none.
  if (redeemsFoundApproval && presented.approvalCheck && !presented.approvalCheck.ok) presented.approvalCheck = null;
  if (!annotations.idempotent) {
    const duplicate = await checkDuplicateCall({
      tenantId,
      tool: request.tool,
      argsHash,
      idempotencyKey: request.idempotency_key,
      callId: request.call_id,
      windowSeconds: settings.duplicateWindowSeconds,
    });
    if (duplicate) warnings.push(duplicate);
  }

  const call = {
    tool: request.tool,
    sideEffectLevel: annotations.side_effect_level,
    arguments: args,
    context: request.context,
    apiKeyId: caller.apiKeyId,
  };
  let retrying = false;
  for (let attempt = 1; ; attempt++) {
    retrying = attempt > 1;
    try {
      // Decided again in turn with the tenant's other calls decided again: racing, each round
      // let one of them through, and a burst of concurrent calls reading one count ran out of
      // attempts (30 calls under a cap of 100: ten answered 503).
      return attempt === 1 ? await decideAndRecord() : await inTurn(tenantId, decideAndRecord);
    } catch (error) {
      // Another call changed the history this one was decided on (a limit filled up, a count
      // moved) before this one committed: nothing was recorded; decide again from the new counts.
      if (!(error instanceof HistoryConflictError)) throw error;
      if (attempt >= HISTORY_ATTEMPTS) {
        throw new AppError(
          'unavailable',
          'Too many calls changed the same policy history at once; this call was not decided. Retry shortly.',
          { reason: 'history_contention' },
          { 'retry-after': '1' },
        );
      }
    }
  }

  async function decideAndRecord(): Promise<ValidationResponse> {
    const policies = await evaluateCallPolicies({
      tenantId,
      contract: compiled,
      version: request.version,
      call,
      binding,
      argsHash,
      checkErrors: errors,
      confirmationIssues: presented.confirmationIssues,
      freshHistory: retrying,
      approvalCheck: presented.approvalCheck,
      approvalTtlSeconds: settings.approvalTtlSeconds,
    });
    const policyOutcome = policies.outcome;
    // Issues quote the values they refuse; none at a sensitive path is kept or answered so.
    redactIssueValues(policies.enforced.errors, sensitive);
    // This attempt's own list: a call decided again (a history conflict) would otherwise add the
    // approval token a second time, and its commit, finding it used by itself, refused the call.
    const tokens =
      policies.enforced.approvalTokenUsed && presented.approvalCheck?.ok
        ? [...presented.tokens, { kind: 'approval' as const, id: presented.approvalCheck.id }]
        : presented.tokens;

    // Raw payloads only with retention on, redacted, and outside the chained hash (only their digest is in it).
    let storedArguments: string | null = null;
    let storedPayload: string | null = null;
    if (settings.storeRawArguments) {
      storedArguments = redactArguments(args, sensitive);
      storedPayload = retainedPayloadJson(
        { context: request.context, transformed_arguments: policyOutcome?.transformed ? policyOutcome.arguments : undefined },
        sensitive,
      );
    }
    const recording: PreCallRecording = {
      base,
      firstRecordId: options.firstRecordId,
      contractVersion: resolvedContract.version,
      contractHash: resolvedContract.contentHash,
      storedArguments,
      storedPayload,
      warnings,
      started,
      policies,
      tokens,
      binding,
      arguments: args,
      context: request.context,
      annotations,
      approvalTtlSeconds: settings.approvalTtlSeconds,
    };

    let outcome;
    let finalErrors = policies.enforced.errors;
    try {
      outcome = await recordPreCall(recording, finalErrors);
    } catch (error) {
      if (!(error instanceof TokenAlreadyUsedError)) throw error;
      // redeem_approval found an approval that another call redeemed before this one committed:
      // this call has no approval of its own, and is decided as one arriving a moment later is
      // (held for a new approval), not refused for a token the agent never sent.
      if (error.kind === 'approval' && redeemsFoundApproval && presented.approvalCheck) {
        presented.approvalCheck = null;
        return decideAndRecord();
      }
      // Another request redeemed the token between our check and our commit.
      const code = error.kind === 'approval' ? 'AXAG_APPROVAL_INVALID' : 'AXAG_CONFIRMATION_INVALID';
      finalErrors = [
        ...finalErrors,
        makeIssue(code, {
          intent: request.tool,
          message: `The ${error.kind} token was already used; each ${error.kind} allows one call.`,
          path: `$.${error.kind}_token`,
          reason: 'used',
        }),
      ];
      outcome = await recordPreCall(recording, finalErrors);
    }

    const approval = outcome.evidence.extra;
    return buildValidationResponse({
      tool: request.tool,
      version: resolvedContract.version,
      contractHash: resolvedContract.contentHash,
      callId: sent.call_id,
      traceId,
      evidenceId: outcome.evidence.id,
      errors: finalErrors,
      warnings,
      decision: outcome.decision,
      approval: approval
        ? {
            id: approval.id,
            status: approval.status,
            expires_at: approval.expiresAt.toISOString(),
            poll_url: `/api/v1/approvals/${approval.id}`,
          }
        : undefined,
      policy: policyOutcome
        ? {
            decision: policyOutcome.decision,
            reason: policyOutcome.reason,
            policy_id: policyOutcome.decidedBy?.policy_id ?? null,
            version: policyOutcome.decidedBy?.version ?? null,
            rule: policyOutcome.decidedBy?.rule ?? null,
          }
        : undefined,
      transformedArguments: outcome.decision === 'transform' ? policyOutcome?.arguments : undefined,
    });
  }
}
