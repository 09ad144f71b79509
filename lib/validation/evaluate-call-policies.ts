import type { CallBinding } from '../approvals/call-token';
import type { TokenCheck } from '../approvals/check-call-token';
import { findRecentDenial } from '../approvals/find-recent-denial';
import { hashCanonical } from '../contracts/canonical-json';
import type { CompiledContract } from '../contracts/compile-contract';
import { resolveContract, resolveShadowContract } from '../contracts/resolve-contract';
import { evaluatePolicies, type PolicyCall, type PolicyOutcome } from '../policies/evaluate-policies';
import { loadPolicies, type TenantPolicies } from '../policies/load-policies';
import type { PolicyEvidence, ShadowEvaluation } from '../policies/policy-evidence';
import { checkPreCall } from './check-pre-call';
import { decideCall, type CallDecision } from './decide-call';
import type { ValidationIssue } from './error-codes';
import { readCallHistory } from '../history/read-history';
import type { HistoryView } from '../history/history-view';
import type { HistoryQuery } from '../history/history-query';
import { nowMs as clockNowMs } from '../clock/clock';

/** What the policy step of validate/pre found, and what the evidence records of it. */
export interface CallPolicies {
  /** The enforced policies' outcome; null when the tenant enforces none. */
  outcome: PolicyOutcome | null;
  enforced: CallDecision;
  shadow: ShadowEvaluation[];
  /** Null when neither a policy nor a shadow version took part. */
  evidence: PolicyEvidence | null;
  /** The history the policies read for the call (null when none asks), and every series the tenant counts calls into. */
  history: { view: HistoryView | null; tracked: HistoryQuery[]; nowMs: number };
}

/**
 * The policy step of validate/pre: the tenant's enforced policies on the call, the call's
 * decision from all its parts, an earlier denial of the same call, and every shadow version
 * decided beside it.
 */
export async function evaluateCallPolicies(options: {
  tenantId: string;
  contract: CompiledContract;
  /** The version the request pinned, if any. */
  version: string | undefined;
  call: PolicyCall;
  binding: CallBinding;
  argsHash: string;
  checkErrors: ValidationIssue[];
  confirmationIssues: ValidationIssue[];
  approvalCheck: TokenCheck | null;
  /** The tenant's approval expiry, for contracts and policies that set none. */
  approvalTtlSeconds: number;
  /** Read the call's history from the database only (deciding again after a refused commit). */
  freshHistory?: boolean;
}): Promise<CallPolicies> {
  const { tenantId, contract, call, checkErrors, confirmationIssues, approvalCheck } = options;
  const policyStarted = performance.now();
  const policies = await loadPolicies(tenantId);
  const nowMs = clockNowMs();
  const historyCall = { ...call, apiKeyId: call.apiKeyId ?? null };
  const view =
    policies.tracked.length > 0
      ? await readCallHistory({
          tenantId,
          policies: [...policies.enforced, ...policies.shadow],
          call: historyCall,
          nowMs,
          fresh: options.freshHistory,
        })
      : null;
  const policyOutcome = policies.enforced.length > 0 ? evaluatePolicies(policies.enforced, call, { history: view }) : null;
  const enforced = decideCall({ contract, call, checkErrors, confirmationIssues, policy: policyOutcome, approvalCheck });
  if (enforced.approval && !approvalCheck) {
    // A person already denied this exact call: say so, with their comment, rather than queue
    // the same call for approval again.
    const denial = await findRecentDenial({
      binding: options.binding,
      withinSeconds: enforced.approval.expiresInSeconds ?? contract.document.annotations.approval_ttl_seconds ?? options.approvalTtlSeconds,
    });
    if (denial) {
      enforced.errors = [
        ...enforced.errors.filter((e) => e.code !== 'AXAG_APPROVAL_MISSING' && e.code !== 'AXAG_ESCALATION_REQUIRED'),
        denial,
      ];
      enforced.decision = 'deny';
    }
  }
  const shadow = await evaluateShadows({
    tenantId,
    policies,
    call,
    view,
    version: options.version,
    enforced,
    checkErrors,
    confirmationIssues,
    approvalCheck,
  });
  const evidence =
    policyOutcome || shadow.length > 0
      ? buildPolicyEvidence({
          outcome: policyOutcome,
          enforced,
          shadow,
          argsHash: options.argsHash,
          durationMs: performance.now() - policyStarted,
        })
      : null;
  return { outcome: policyOutcome, enforced, shadow, evidence, history: { view, tracked: policies.tracked, nowMs } };
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
  view: HistoryView | null;
  version: string | undefined;
  enforced: CallDecision;
  checkErrors: ValidationIssue[];
  confirmationIssues: ValidationIssue[];
  approvalCheck: TokenCheck | null;
}): Promise<ShadowEvaluation[]> {
  const { policies, call, enforced } = options;
  const out: ShadowEvaluation[] = [];
  const shadowContract = await resolveShadowContract({ tenantId: options.tenantId, tool: call.tool });
  if (policies.shadow.length === 0 && !shadowContract) return out;
  const resolved = await resolveContract({ tenantId: options.tenantId, tool: call.tool, version: options.version });
  if (!resolved.found) return out;
  for (const candidate of policies.shadow) {
    const set = [...policies.enforced.filter((p) => p.id !== candidate.id), candidate];
    // A shadow's answers are not checked at commit: it decides nothing.
    const outcome = evaluatePolicies(set, call, { history: options.view?.detached() ?? null });
    const decided = decideCall({
      contract: resolved.contract.compiled,
      call,
      checkErrors: options.checkErrors,
      confirmationIssues: options.confirmationIssues,
      policy: outcome,
      approvalCheck: options.approvalCheck,
    });
    out.push({
      kind: 'policy',
      id: candidate.id,
      version: candidate.version,
      decision: decided.decision,
      rule: outcome.decidedBy?.policy_id === candidate.id ? outcome.decidedBy.rule : null,
      codes: decided.errors.map((e) => e.code),
      differs: decided.decision !== enforced.decision,
    });
  }
  if (shadowContract && shadowContract.versionId !== resolved.contract.versionId) {
    const compiled = shadowContract.compiled;
    const checked = checkPreCall({ contract: compiled, arguments: call.arguments, context: call.context });
    const shadowCall = { ...call, sideEffectLevel: compiled.document.annotations.side_effect_level };
    const outcome =
      policies.enforced.length > 0 ? evaluatePolicies(policies.enforced, shadowCall, { history: options.view?.detached() ?? null }) : null;
    const decided = decideCall({
      contract: compiled,
      call,
      checkErrors: checked.errors,
      confirmationIssues: options.confirmationIssues,
      policy: outcome,
      approvalCheck: options.approvalCheck,
    });
    out.push({
      kind: 'contract',
      id: call.tool,
      version: shadowContract.version,
      decision: decided.decision,
      rule: null,
      codes: decided.errors.map((e) => e.code),
      differs: decided.decision !== enforced.decision,
    });
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
    evidence.approval = {
      roles: enforced.approval.roles,
      approvers_required: enforced.approval.approversRequired,
      expires_in_seconds: enforced.approval.expiresInSeconds,
      escalated: enforced.approval.escalated,
    };
  }
  if (options.shadow.length > 0) evidence.shadow = options.shadow;
  if (outcome && outcome.limits.length > 0) {
    evidence.limits = outcome.limits.map(({ policy_id, limit_id, used, amount, max, exceeded }) => ({
      policy_id,
      limit_id,
      used,
      amount,
      max,
      exceeded,
    }));
  }
  return evidence;
}
