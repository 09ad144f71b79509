import { z } from 'zod';
import { db } from '../db';
import { env } from '../env';
import { CallContextSchema, plainObject } from '../api/schemas';
import type { Caller } from '../api/define-route';
import { hashCanonical } from '../contracts/canonical-json';
import { resolveContract } from '../contracts/resolve-contract';
import { getInstanceSecret } from '../auth/instance-secret';
import { checkCallToken } from '../approvals/check-call-token';
import { consumeCallToken, TokenAlreadyUsedError } from '../approvals/consume-call-token';
import { requestApproval } from '../approvals/request-approval';
import type { CallBinding } from '../approvals/call-token';
import { recordEvidence } from '../evidence/record-evidence';
import type { Tx } from '../db';
import type { Approval } from '../generated/sqlite/client';
import { redactArguments } from '../evidence/redact-arguments';
import { traceIdFor } from '../evidence/trace-id';
import { checkPreCall } from './check-pre-call';
import { makeIssue, type ValidationIssue } from './error-codes';
import { decideFromIssues } from './decide';
import { unresolvedContractIssue } from './unresolved-contract-issue';
import { buildValidationResponse, type ValidationResponse } from './validation-response';

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
  })
  .strict();

export type PreCallRequest = z.infer<typeof PreCallRequestSchema>;

type KeyCaller = Extract<Caller, { kind: 'api_key' }>;

/**
 * validate/pre: every pre-execution and execution-time check of a proposed tool call, then the
 * decision, committed as evidence before it is returned.
 */
export async function validatePreCall(options: { caller: KeyCaller; request: PreCallRequest; requestId: string; traceparent: string | null }): Promise<ValidationResponse> {
  const started = performance.now();
  const { caller, request } = options;
  const tenantId = caller.tenantId;
  const args = request.arguments;
  const argsHash = hashCanonical(args);
  const traceId = traceIdFor(tenantId, request.call_id);
  const base = {
    tenantId,
    kind: 'pre' as const,
    requestId: options.requestId,
    traceId,
    callId: request.call_id,
    w3cTraceparent: options.traceparent,
    apiKeyId: caller.apiKeyId,
    tool: request.tool,
    argsHash,
    idempotencyKey: request.idempotency_key ?? null,
  };

  const resolved = await resolveContract({ tenantId, tool: request.tool, version: request.version });
  if (!resolved.found) {
    const issue = unresolvedContractIssue(resolved.reason, request.tool, request.version);
    const evidence = await recordEvidence({ ...base, decision: 'deny', valid: false, errors: [issue], warnings: [], durationMs: performance.now() - started });
    return buildValidationResponse({ tool: request.tool, callId: request.call_id, traceId, evidenceId: evidence.id, errors: [issue], warnings: [], decision: 'deny' });
  }

  const { compiled } = resolved.contract;
  const annotations = compiled.document.annotations;
  const { errors, warnings } = checkPreCall({ contract: compiled, arguments: args, context: request.context });
  if (resolved.contract.deprecated && !warnings.some((w) => w.code === 'AXAG_CONTRACT_DEPRECATED')) {
    warnings.push(makeIssue('AXAG_CONTRACT_DEPRECATED', { intent: request.tool, message: `${request.tool}@${resolved.contract.version} is deprecated.` }));
  }

  const binding: CallBinding = { tenantId, tool: request.tool, contractVersion: resolved.contract.version, argsHash, userId: request.context.user_id ?? null };
  const secret = await getInstanceSecret();
  const tokens: { kind: 'approval' | 'confirmation'; id: string }[] = [];

  if (annotations.confirmation_required) {
    if (!request.confirmation_token) {
      errors.push(makeIssue('AXAG_CONFIRMATION_MISSING', { intent: request.tool, message: `${request.tool} needs the user's explicit confirmation of this exact call.`, path: '$.confirmation_token' }));
    } else {
      const check = await checkCallToken({ kind: 'confirmation', token: request.confirmation_token, binding, secret });
      if (check.ok) tokens.push({ kind: 'confirmation', id: check.id });
      else errors.push(check.issue);
    }
  }
  if (annotations.approval_required) {
    if (!request.approval_token) {
      errors.push(makeIssue('AXAG_APPROVAL_MISSING', { intent: request.tool, message: `${request.tool} needs an approval from one of: ${annotations.approver_roles.join(', ') || 'an approver'}.`, path: '$.approval_token', approver_roles: annotations.approver_roles }));
    } else {
      const check = await checkCallToken({ kind: 'approval', token: request.approval_token, binding, secret });
      if (check.ok) tokens.push({ kind: 'approval', id: check.id });
      else errors.push(check.issue);
    }
  }
  if (!annotations.idempotent) {
    const duplicate = await findDuplicate({ tenantId, tool: request.tool, argsHash, idempotencyKey: request.idempotency_key, callId: request.call_id });
    if (duplicate) {
      warnings.push(
        makeIssue('AXAG_DUPLICATE_CALL', {
          intent: request.tool,
          message: `${request.tool} is not idempotent and the same call (${request.idempotency_key ? 'idempotency key' : 'arguments'}) was allowed ${Math.round((Date.now() - duplicate.createdAt.getTime()) / 1000)}s ago as call "${duplicate.callId}".`,
          previous_call_id: duplicate.callId,
        }),
      );
    }
  }

  const storedArguments = caller.storeRawArguments ? redactArguments(args, compiled.document.sensitive ?? []) : null;
  const record = async (errs: ValidationIssue[]) => {
    const decision = decideFromIssues(errs);
    const input = { ...base, contractVersion: resolved.contract.version, contractHash: resolved.contract.contentHash, arguments: storedArguments, decision, valid: errs.length === 0, errors: errs, warnings, durationMs: performance.now() - started };
    // Side effects that must commit with the decision, and only when there are any: plain
    // records take the evidence writer's fast path.
    let within: ((tx: Tx) => Promise<Approval | null>) | undefined;
    if (decision === 'allow' && tokens.length > 0) {
      within = async (tx) => {
        for (const token of tokens) await consumeCallToken(tx, token.kind, token.id, tenantId);
        return null;
      };
    } else if (decision === 'require_approval') {
      within = (tx) =>
        requestApproval(tx, {
          binding,
          callId: request.call_id,
          traceId,
          apiKeyId: caller.apiKeyId,
          approverRoles: annotations.approver_roles,
          reason: `${request.tool} is marked approval_required (side effect: ${annotations.side_effect_level}).`,
          ttlSeconds: annotations.approval_ttl_seconds ?? env().TOOLGATE_APPROVAL_TTL_SECONDS,
        });
    }
    const evidence = await recordEvidence<Approval | null>(input, within);
    return { decision, evidence };
  };

  let outcome;
  let finalErrors = errors;
  try {
    outcome = await record(errors);
  } catch (error) {
    if (!(error instanceof TokenAlreadyUsedError)) throw error;
    // Another request redeemed the token between our check and our commit.
    const code = error.kind === 'approval' ? 'AXAG_APPROVAL_INVALID' : 'AXAG_CONFIRMATION_INVALID';
    finalErrors = [...errors, makeIssue(code, { intent: request.tool, message: `The ${error.kind} token was already used; each ${error.kind} allows one call.`, path: `$.${error.kind}_token`, reason: 'used' })];
    outcome = await record(finalErrors);
  }

  const approval = outcome.evidence.extra;
  return buildValidationResponse({
    tool: request.tool,
    version: resolved.contract.version,
    contractHash: resolved.contract.contentHash,
    callId: request.call_id,
    traceId,
    evidenceId: outcome.evidence.id,
    errors: finalErrors,
    warnings,
    decision: outcome.decision,
    approval: approval ? { id: approval.id, status: approval.status, expires_at: approval.expiresAt.toISOString(), poll_url: `/api/v1/approvals/${approval.id}` } : undefined,
  });
}

async function findDuplicate(options: { tenantId: string; tool: string; argsHash: string; idempotencyKey?: string; callId: string }) {
  const since = new Date(Date.now() - env().TOOLGATE_DUPLICATE_WINDOW_SECONDS * 1000);
  return db().evidence.findFirst({
    where: {
      tenantId: options.tenantId,
      tool: options.tool,
      kind: 'pre',
      decision: 'allow',
      createdAt: { gte: since },
      callId: { not: options.callId },
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : { argsHash: options.argsHash }),
    },
    orderBy: { createdAt: 'desc' },
    select: { callId: true, createdAt: true },
  });
}
