import { z } from 'zod';
import { db } from '../db';
import { plainObject } from '../json';
import { CallContextSchema } from './call-context';
import type { Caller } from '../auth/caller';
import { hashCanonical } from '../contracts/canonical-json';
import { resolveContract } from '../contracts/resolve-contract';
import { getInstanceSecret } from '../auth/instance-secret';
import { checkCallToken } from '../approvals/check-call-token';
import { consumeCallToken, TokenAlreadyUsedError } from '../approvals/consume-call-token';
import { requestApproval } from '../approvals/request-approval';
import { findRecentDenial } from '../approvals/find-recent-denial';
import type { CallBinding } from '../approvals/call-token';
import { recordEvidence, type EvidenceInput } from '../evidence/record-evidence';
import type { Tx } from '../db';
import type { Approval } from '../generated/sqlite/client';
import { redactArguments } from '../evidence/redact-arguments';
import { retainedPayloadJson } from '../retention/retained-payload';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';
import { traceIdFor } from '../evidence/trace-id';
import { checkPreCall } from './check-pre-call';
import { makeIssue, type ValidationIssue } from './error-codes';
import { decideFromIssues, type Decision } from './decide';
import { resolveShadowContract } from '../contracts/resolve-contract';
import type { CompiledContract } from '../contracts/compile-contract';
import type { ToolContract } from '../contracts/contract-schema';
import type { TokenCheck } from '../approvals/check-call-token';
import { loadPolicies, type TenantPolicies } from '../policies/load-policies';
import { evaluatePolicies, mergeApprovals, type ApprovalRequirement, type PolicyCall, type PolicyOutcome } from '../policies/evaluate-policies';
import type { PolicyEvidence, ShadowEvaluation } from '../policies/policy-evidence';
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
  // The tenant's settings (retention, sensitive paths, approval expiry, duplicate window), from memory.
  const settings = await getRuntimeSettings(tenantId);
  const { errors, warnings } = checkPreCall({ contract: compiled, arguments: args, context: request.context });
  if (resolved.contract.deprecated && !warnings.some((w) => w.code === 'AXAG_CONTRACT_DEPRECATED')) {
    warnings.push(makeIssue('AXAG_CONTRACT_DEPRECATED', { intent: request.tool, message: `${request.tool}@${resolved.contract.version} is deprecated.` }));
  }

  const binding: CallBinding = { tenantId, tool: request.tool, contractVersion: resolved.contract.version, argsHash, userId: request.context.user_id ?? null };
  const secret = await getInstanceSecret();
  const tokens: { kind: 'approval' | 'confirmation'; id: string }[] = [];

  const confirmationIssues: ValidationIssue[] = [];
  if (annotations.confirmation_required) {
    if (!request.confirmation_token) {
      confirmationIssues.push(makeIssue('AXAG_CONFIRMATION_MISSING', { intent: request.tool, message: `${request.tool} needs the user's explicit confirmation of this exact call.`, path: '$.confirmation_token' }));
    } else {
      const check = await checkCallToken({ kind: 'confirmation', token: request.confirmation_token, binding, secret });
      if (check.ok) tokens.push({ kind: 'confirmation', id: check.id });
      else confirmationIssues.push(check.issue);
    }
  }
  // Checked whenever one is presented: whether the call needs it depends on the contract and on
  // every policy, enforced and shadow alike.
  const approvalCheck = request.approval_token ? await checkCallToken({ kind: 'approval', token: request.approval_token, binding, secret }) : null;
  if (!annotations.idempotent) {
    const duplicate = await findDuplicate({ tenantId, tool: request.tool, argsHash, idempotencyKey: request.idempotency_key, callId: request.call_id, windowSeconds: settings.duplicateWindowSeconds });
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

  const policyStarted = performance.now();
  const policies = await loadPolicies(tenantId);
  const call = { tool: request.tool, sideEffectLevel: annotations.side_effect_level, arguments: args, context: request.context };
  const policyOutcome = policies.enforced.length > 0 ? evaluatePolicies(policies.enforced, call) : null;
  const enforced = decideCall({ contract: compiled, checkErrors: errors, confirmationIssues, policy: policyOutcome, approvalCheck });
  if (enforced.approval && !approvalCheck) {
    // A person already denied this exact call: say so, with their comment, rather than queue
    // the same call for approval again.
    const denial = await findRecentDenial({ binding, withinSeconds: enforced.approval.expiresInSeconds ?? annotations.approval_ttl_seconds ?? settings.approvalTtlSeconds });
    if (denial) {
      enforced.errors = [...enforced.errors.filter((e) => e.code !== 'AXAG_APPROVAL_MISSING' && e.code !== 'AXAG_ESCALATION_REQUIRED'), denial];
      enforced.decision = 'deny';
    }
  }
  const shadow = await evaluateShadows({ tenantId, policies, call, request, enforced, checkErrors: errors, confirmationIssues, approvalCheck });
  const policyEvidence = policyOutcome || shadow.length > 0 ? buildPolicyEvidence({ outcome: policyOutcome, enforced, shadow, argsHash, durationMs: performance.now() - policyStarted }) : null;
  if (enforced.approvalTokenUsed && approvalCheck?.ok) tokens.push({ kind: 'approval', id: approvalCheck.id });

  // Raw payloads only with retention on, redacted, and outside the chained hash (only their digest is in it).
  let storedArguments: string | null = null;
  let storedPayload: string | null = null;
  if (settings.storeRawArguments) {
    const sensitive = mergeSensitivePaths(compiled.document.sensitive, settings.sensitivePaths);
    storedArguments = redactArguments(args, sensitive);
    storedPayload = retainedPayloadJson({ context: request.context, transformed_arguments: policyOutcome?.transformed ? policyOutcome.arguments : undefined }, sensitive);
  }
  const record = async (errs: ValidationIssue[]) => {
    const decision = decideFromIssues(errs, policyOutcome?.transformed ?? false);
    // Every field written out, in one shape whatever the decision: spreading `base` and an
    // optional policy part into it cost about 6% of the request thread in a CPU profile.
    // Unset policy fields are null/false, which the hash chain leaves out like absent ones.
    const decidedBy = policyEvidence ? policyOutcome?.decidedBy : undefined;
    const input: EvidenceInput = {
      tenantId,
      kind: 'pre',
      requestId: base.requestId,
      traceId,
      callId: base.callId,
      w3cTraceparent: base.w3cTraceparent,
      apiKeyId: base.apiKeyId,
      tool: base.tool,
      argsHash,
      idempotencyKey: base.idempotencyKey,
      contractVersion: resolved.contract.version,
      contractHash: resolved.contract.contentHash,
      arguments: storedArguments,
      payload: storedPayload,
      decision,
      valid: errs.length === 0,
      errors: errs,
      warnings,
      durationMs: performance.now() - started,
      policyId: decidedBy?.policy_id ?? null,
      policyVersion: decidedBy?.version ?? null,
      policyRule: decidedBy?.rule ?? null,
      policy: policyEvidence ? JSON.stringify(policyEvidence) : null,
      shadowDiffers: policyEvidence ? shadow.some((s) => s.differs) : false,
    };
    // Side effects that must commit with the decision, and only when there are any: plain
    // records take the evidence writer's fast path.
    let within: ((tx: Tx) => Promise<Approval | null>) | undefined;
    if ((decision === 'allow' || decision === 'transform') && tokens.length > 0) {
      within = async (tx) => {
        for (const token of tokens) await consumeCallToken(tx, token.kind, token.id, tenantId);
        return null;
      };
    } else if ((decision === 'require_approval' || decision === 'escalate') && enforced.approval) {
      const needed = enforced.approval;
      within = (tx) =>
        requestApproval(tx, {
          binding,
          callId: request.call_id,
          traceId,
          apiKeyId: caller.apiKeyId,
          approverRoles: needed.roles,
          reason: approvalReason(request.tool, annotations, policyOutcome),
          ttlSeconds: needed.expiresInSeconds ?? annotations.approval_ttl_seconds ?? settings.approvalTtlSeconds,
          sideEffectLevel: annotations.side_effect_level,
          arguments: args,
          context: request.context,
          approversRequired: needed.approversRequired,
          escalationLevel: needed.escalated ? 1 : 0,
          policy: policyOutcome?.decidedBy ? { id: policyOutcome.decidedBy.policy_id, version: policyOutcome.decidedBy.version, rule: policyOutcome.decidedBy.rule } : null,
        });
    }
    const evidence = await recordEvidence<Approval | null>(input, within);
    return { decision, evidence };
  };

  let outcome;
  let finalErrors = enforced.errors;
  try {
    outcome = await record(finalErrors);
  } catch (error) {
    if (!(error instanceof TokenAlreadyUsedError)) throw error;
    // Another request redeemed the token between our check and our commit.
    const code = error.kind === 'approval' ? 'AXAG_APPROVAL_INVALID' : 'AXAG_CONFIRMATION_INVALID';
    finalErrors = [...finalErrors, makeIssue(code, { intent: request.tool, message: `The ${error.kind} token was already used; each ${error.kind} allows one call.`, path: `$.${error.kind}_token`, reason: 'used' })];
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
    policy: policyOutcome
      ? { decision: policyOutcome.decision, reason: policyOutcome.reason, policy_id: policyOutcome.decidedBy?.policy_id ?? null, version: policyOutcome.decidedBy?.version ?? null, rule: policyOutcome.decidedBy?.rule ?? null }
      : undefined,
    transformedArguments: outcome.decision === 'transform' ? policyOutcome?.arguments : undefined,
  });
}

function approvalReason(tool: string, annotations: ToolContract['annotations'], policy: PolicyOutcome | null): string {
  if (policy?.approval && policy.reason) return policy.reason;
  return `${tool} is marked approval_required (side effect: ${annotations.side_effect_level}).`;
}

type CallDecision = { decision: Decision; errors: ValidationIssue[]; approval: ApprovalRequirement | null; approvalTokenUsed: boolean };

/**
 * The whole call's decision from its parts: contract findings, the confirmation, the policy
 * outcome and any presented approval token. Pure, so shadow versions are decided by the same
 * function with their own parts.
 */
function decideCall(options: {
  contract: CompiledContract;
  checkErrors: readonly ValidationIssue[];
  confirmationIssues: readonly ValidationIssue[];
  policy: PolicyOutcome | null;
  approvalCheck: TokenCheck | null;
}): CallDecision {
  const { contract, policy } = options;
  const tool = contract.document.id;
  const errors: ValidationIssue[] = [...options.checkErrors, ...options.confirmationIssues];
  if (policy) {
    errors.push(...policy.issues);
    if (policy.transformed) {
      const invalid = contract.checkInput(policy.arguments);
      if (invalid.length > 0) {
        errors.push(
          makeIssue('AXAG_POLICY_TRANSFORM_INVALID', {
            intent: tool,
            message: `Policy ${policy.decidedBy?.policy_id ?? ''} rewrote the arguments into ones the contract refuses: ${invalid.slice(0, 3).map((i) => `${i.code} at ${i.path}`).join('; ')}.`,
            policy_id: policy.decidedBy?.policy_id ?? null,
            rule: policy.decidedBy?.rule ?? null,
            issues: invalid.slice(0, 10).map((i) => ({ code: i.code, path: i.path, message: i.message })),
          }),
        );
      }
    }
  }
  const annotations = contract.document.annotations;
  const fromContract: ApprovalRequirement | null = annotations.approval_required
    ? { roles: [...annotations.approver_roles], approversRequired: 1, expiresInSeconds: annotations.approval_ttl_seconds ?? null, escalated: false }
    : null;
  const approval = mergeApprovals([fromContract, policy?.approval ?? null]);
  let approvalTokenUsed = false;
  if (approval) {
    const check = options.approvalCheck;
    if (check?.ok) approvalTokenUsed = true;
    else if (check) errors.push(check.issue);
    else if (approval.escalated) {
      errors.push(makeIssue('AXAG_ESCALATION_REQUIRED', { intent: tool, message: `${tool} was escalated to ${approval.roles.join(', ') || 'a higher role'} by ${policy?.decidedBy ? `policy ${policy.decidedBy.policy_id} rule ${policy.decidedBy.rule}` : 'a policy'}${policy?.reason ? `: ${policy.reason}` : '.'}`, path: '$.approval_token', approver_roles: approval.roles }));
    } else {
      const why = policy?.approval && policy.reason ? ` (${policy.reason})` : '';
      errors.push(makeIssue('AXAG_APPROVAL_MISSING', { intent: tool, message: `${tool} needs an approval from one of: ${approval.roles.join(', ') || 'an approver'}${why}.`, path: '$.approval_token', approver_roles: approval.roles, approvers_required: approval.approversRequired }));
    }
  }
  return { decision: decideFromIssues(errors, policy?.transformed ?? false), errors, approval, approvalTokenUsed };
}

/**
 * Shadow versions (policies and this tool's contract published as `shadow`), each decided in
 * place of its enforced counterpart with everything else unchanged. They decide nothing; their
 * decisions go into the evidence beside the enforced one.
 */
async function evaluateShadows(options: {
  tenantId: string;
  policies: TenantPolicies;
  call: PolicyCall;
  request: PreCallRequest;
  enforced: CallDecision;
  checkErrors: ValidationIssue[];
  confirmationIssues: ValidationIssue[];
  approvalCheck: TokenCheck | null;
}): Promise<ShadowEvaluation[]> {
  const { policies, call, enforced } = options;
  const out: ShadowEvaluation[] = [];
  const shadowContract = await resolveShadowContract({ tenantId: options.tenantId, tool: call.tool });
  if (policies.shadow.length === 0 && !shadowContract) return out;
  const resolved = await resolveContract({ tenantId: options.tenantId, tool: call.tool, version: options.request.version });
  if (!resolved.found) return out;
  for (const candidate of policies.shadow) {
    const set = [...policies.enforced.filter((p) => p.id !== candidate.id), candidate];
    const outcome = evaluatePolicies(set, call);
    const decided = decideCall({ contract: resolved.contract.compiled, checkErrors: options.checkErrors, confirmationIssues: options.confirmationIssues, policy: outcome, approvalCheck: options.approvalCheck });
    out.push({ kind: 'policy', id: candidate.id, version: candidate.version, decision: decided.decision, rule: outcome.decidedBy?.policy_id === candidate.id ? outcome.decidedBy.rule : null, codes: decided.errors.map((e) => e.code), differs: decided.decision !== enforced.decision });
  }
  if (shadowContract && shadowContract.versionId !== resolved.contract.versionId) {
    const compiled = shadowContract.compiled;
    const checked = checkPreCall({ contract: compiled, arguments: call.arguments, context: call.context });
    const shadowCall = { ...call, sideEffectLevel: compiled.document.annotations.side_effect_level };
    const outcome = policies.enforced.length > 0 ? evaluatePolicies(policies.enforced, shadowCall) : null;
    const decided = decideCall({ contract: compiled, checkErrors: checked.errors, confirmationIssues: options.confirmationIssues, policy: outcome, approvalCheck: options.approvalCheck });
    out.push({ kind: 'contract', id: call.tool, version: shadowContract.version, decision: decided.decision, rule: null, codes: decided.errors.map((e) => e.code), differs: decided.decision !== enforced.decision });
  }
  return out;
}

function buildPolicyEvidence(options: {
  outcome: PolicyOutcome | null;
  enforced: CallDecision;
  shadow: ShadowEvaluation[];
  argsHash: string;
  durationMs: number;
}): PolicyEvidence {
  const { outcome, enforced } = options;
  const evidence: PolicyEvidence = {
    decision: outcome?.decision ?? 'allow',
    reason: outcome?.reason ?? null,
    decided_by: outcome?.decidedBy ?? null,
    evaluated: outcome?.verdicts ?? [],
    duration_ms: Math.round(options.durationMs * 1000) / 1000,
  };
  if (outcome?.transformed) {
    // Only hashes: the rewritten arguments themselves are a raw payload (payload.transformed_arguments).
    evidence.transformed = { args_hash: hashCanonical(outcome.arguments), original_args_hash: options.argsHash };
  }
  if (enforced.approval && (outcome?.approval ?? null) !== null) {
    evidence.approval = { roles: enforced.approval.roles, approvers_required: enforced.approval.approversRequired, expires_in_seconds: enforced.approval.expiresInSeconds, escalated: enforced.approval.escalated };
  }
  if (options.shadow.length > 0) evidence.shadow = options.shadow;
  return evidence;
}

async function findDuplicate(options: { tenantId: string; tool: string; argsHash: string; idempotencyKey?: string; callId: string; windowSeconds: number }) {
  const since = new Date(Date.now() - options.windowSeconds * 1000);
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
