import { hashCanonical } from '../contracts/canonical-json';
import type { CallBinding } from '../approvals/call-token';
import type { FirstRecordId } from '../evidence/first-record-id';
import { consumeCallToken } from '../approvals/consume-call-token';
import { requestApproval } from '../approvals/request-approval';
import type { ToolContract } from '../contracts/contract-schema';
import type { Tx } from '../db';
import { recordEvidence, type EvidenceInput } from '../evidence/record-evidence';
import type { Approval } from '../generated/sqlite/client';
import type { PolicyOutcome } from '../policies/evaluate-policies';
import type { CallContext } from './call-context';
import type { PresentedToken } from './check-presented-tokens';
import { decideFromIssues } from './decide';
import type { ValidationIssue } from './error-codes';
import type { CallPolicies } from './evaluate-call-policies';
import { buildCallHistory, historyIncrements } from '../history/call-history';
import { duplicateKeyOf } from './duplicate-key';

/** The fields every validate/pre record has, whether its contract was found or not. */
export interface PreCallBase {
  tenantId: string;
  kind: 'pre';
  requestId: string;
  traceId: string;
  callId: string;
  w3cTraceparent: string | null;
  apiKeyId: string;
  tool: string;
  argsHash: string;
  idempotencyKey: string | null;
  mcpServer: string | null;
}

/** Everything a validate/pre record of a resolved contract holds besides its errors, gathered once per call. */
export interface PreCallRecording {
  base: PreCallBase;
  /** Taken by the record written (a call decided again writes its record with a new id). */
  firstRecordId: FirstRecordId | undefined;
  contractVersion: string;
  contractHash: string;
  /** Raw payloads, redacted; set only with retention on. */
  storedArguments: string | null;
  storedPayload: string | null;
  warnings: ValidationIssue[];
  /** performance.now() when the request came in. */
  started: number;
  policies: CallPolicies;
  /** Tokens the call redeems when it is allowed. */
  tokens: PresentedToken[];
  /** What an approval request for the call needs. */
  binding: CallBinding;
  arguments: Record<string, unknown>;
  context: CallContext;
  annotations: ToolContract['annotations'];
  /** The tenant's approval expiry, for contracts and policies that set none. */
  approvalTtlSeconds: number;
}

/**
 * Records the call's evidence with `errors` and the decision they make, together with the side
 * effects that must commit with it: the presented tokens consumed when the call is allowed, the
 * approval request when it needs one.
 */
export async function recordPreCall(recording: PreCallRecording, errs: ValidationIssue[]) {
  const { base, policies, annotations } = recording;
  const policyOutcome = policies.outcome;
  const policyEvidence = policies.evidence;
  const decision = decideFromIssues(errs, policyOutcome?.transformed ?? false);
  // Every field written out, in one shape whatever the decision: spreading `base` and an
  // optional policy part into it cost about 6% of the request thread in a CPU profile.
  // Unset policy fields are null/false, which the hash chain leaves out like absent ones.
  const decidedBy = policyEvidence ? policyOutcome?.decidedBy : undefined;
  const input: EvidenceInput = {
    tenantId: base.tenantId,
    kind: 'pre',
    requestId: base.requestId,
    recordId: recording.firstRecordId?.take(),
    traceId: base.traceId,
    callId: base.callId,
    w3cTraceparent: base.w3cTraceparent,
    apiKeyId: base.apiKeyId,
    tool: base.tool,
    argsHash: base.argsHash,
    idempotencyKey: base.idempotencyKey,
    mcpServer: base.mcpServer,
    contractVersion: recording.contractVersion,
    contractHash: recording.contractHash,
    arguments: recording.storedArguments,
    payload: recording.storedPayload,
    decision,
    valid: errs.length === 0,
    errors: errs,
    warnings: recording.warnings,
    durationMs: performance.now() - recording.started,
    policyId: decidedBy?.policy_id ?? null,
    policyVersion: decidedBy?.version ?? null,
    policyRule: decidedBy?.rule ?? null,
    policy: policyEvidence ? JSON.stringify(policyEvidence) : null,
    shadowDiffers: policyEvidence ? policies.shadow.some((s) => s.differs) : false,
    // What later calls of a tool that is not idempotent are checked against (check-duplicate-call.ts):
    // every call allowed to run, as sent, a transformed one too.
    duplicateKey: (decision === 'allow' || decision === 'transform') && !annotations.idempotent ? duplicateKeyOf(base) : null,
  };
  const { view, tracked, nowMs } = policies.history;
  if (tracked.length > 0) {
    // Counted with the arguments the call runs with: a transform that caps an amount spends the cap.
    const ran = policyOutcome?.transformed ? policyOutcome.arguments : recording.arguments;
    const call = { tool: base.tool, apiKeyId: base.apiKeyId, context: recording.context, arguments: ran };
    input.history = view
      ? buildCallHistory({ tracked, call, decision, limits: policyOutcome?.limits ?? [], view })
      : nonEmpty(historyIncrements(tracked, call, decision, nowMs));
  }
  // Side effects that must commit with the decision, and only when there are any: plain
  // records take the evidence writer's fast path.
  let within: ((tx: Tx) => Promise<Approval | null>) | undefined;
  if ((decision === 'allow' || decision === 'transform') && recording.tokens.length > 0) {
    within = async (tx) => {
      for (const token of recording.tokens) await consumeCallToken(tx, token.kind, token.id, base.tenantId);
      return null;
    };
  } else if ((decision === 'require_approval' || decision === 'escalate') && policies.enforced.approval) {
    const needed = policies.enforced.approval;
    within = (tx) =>
      requestApproval(tx, {
        binding: recording.binding,
        callId: base.callId,
        traceId: base.traceId,
        apiKeyId: base.apiKeyId,
        approverRoles: needed.roles,
        reason: approvalReason(base.tool, annotations, policyOutcome),
        ttlSeconds: needed.expiresInSeconds ?? annotations.approval_ttl_seconds ?? recording.approvalTtlSeconds,
        sideEffectLevel: annotations.side_effect_level,
        arguments: recording.arguments,
        context: recording.context,
        approversRequired: needed.approversRequired,
        escalationLevel: needed.escalated ? 1 : 0,
        policy: policyOutcome?.decidedBy
          ? { id: policyOutcome.decidedBy.policy_id, version: policyOutcome.decidedBy.version, rule: policyOutcome.decidedBy.rule }
          : null,
        rewritten: policyOutcome?.transformed
          ? { arguments: policyOutcome.arguments, argsHash: hashCanonical(policyOutcome.arguments), by: policyOutcome.transformedBy }
          : undefined,
      });
  }
  const evidence = await recordEvidence<Approval | null>(input, within);
  return { decision, evidence };
}

function nonEmpty(increments: ReturnType<typeof historyIncrements>) {
  return increments.length > 0 ? { increments, claims: [], reads: [] } : undefined;
}

function approvalReason(tool: string, annotations: ToolContract['annotations'], policy: PolicyOutcome | null): string {
  if (policy?.approval && policy.reason) return policy.reason;
  return `${tool} is marked approval_required (side effect: ${annotations.side_effect_level}).`;
}
