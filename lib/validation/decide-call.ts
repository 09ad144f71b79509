import type { TokenCheck } from '../approvals/check-call-token';
import { hashCanonical } from '../contracts/canonical-json';
import type { CompiledContract } from '../contracts/compile-contract';
import { mergeApprovals, type ApprovalRequirement, type PolicyOutcome } from '../policies/evaluate-policies';
import type { Decision } from '../decisions';
import { decideFromIssues } from './decide';
import { checkPreCall, type CallContext } from './check-pre-call';
import { makeIssue, type ValidationIssue } from './error-codes';
import { approvalShortfall, describeGrant } from '../approvals/approval-grant';

export type CallDecision = {
  decision: Decision;
  errors: ValidationIssue[];
  approval: ApprovalRequirement | null;
  approvalTokenUsed: boolean;
};

/**
 * The whole call's decision from its parts: contract findings, the confirmation, the policy
 * outcome and any presented approval token. Pure, so shadow versions are decided by the same
 * function with their own parts.
 */
export function decideCall(options: {
  contract: CompiledContract;
  /** The call as the agent sent it: its arguments and the context the rewritten ones are checked in. */
  call: { arguments: unknown; context: CallContext };
  checkErrors: readonly ValidationIssue[];
  confirmationIssues: readonly ValidationIssue[];
  policy: PolicyOutcome | null;
  approvalCheck: TokenCheck | null;
}): CallDecision {
  const { contract, policy } = options;
  const tool = contract.document.id;
  const errors: ValidationIssue[] = [...options.checkErrors, ...options.confirmationIssues];
  if (policy?.transformed) {
    errors.push(...policy.issues);
    const refusal = transformRefusal(contract, options.call, policy, options.checkErrors, options.approvalCheck);
    if (refusal) errors.push(refusal);
  } else if (policy) errors.push(...policy.issues);
  const annotations = contract.document.annotations;
  const fromContract: ApprovalRequirement | null = annotations.approval_required
    ? {
        roles: [...annotations.approver_roles],
        approversRequired: 1,
        expiresInSeconds: annotations.approval_ttl_seconds ?? null,
        escalated: false,
      }
    : null;
  const approval = mergeApprovals([fromContract, policy?.approval ?? null]);
  let approvalTokenUsed = false;
  if (approval) {
    const check = options.approvalCheck;
    // A valid token whose approval was given by fewer or other people than this call needs now
    // (an approver's edit made it a bigger call, a stricter policy was published since) counts
    // as no token: the call is held for the approval it needs, and the answer says why.
    const grant = check?.ok ? check.grant : undefined;
    const shortfall = grant ? approvalShortfall(grant, approval) : null;
    const notEnough =
      grant && shortfall
        ? `The approval behind the approval_token was given for ${describeGrant(grant)}, which no longer covers this call (${shortfall.replace('_', ' ')}); a new approval is needed. `
        : '';
    if (check?.ok && !shortfall) approvalTokenUsed = true;
    else if (check && !check.ok) errors.push(check.issue);
    else if (approval.escalated) {
      errors.push(
        makeIssue('AXAG_ESCALATION_REQUIRED', {
          intent: tool,
          message: `${notEnough}${tool} was escalated to ${approval.roles.join(', ') || 'a higher role'} by ${policy?.decidedBy ? `policy ${policy.decidedBy.policy_id} rule ${policy.decidedBy.rule}` : 'a policy'}${policy?.reason ? `: ${policy.reason}` : '.'}`,
          path: '$.approval_token',
          approver_roles: approval.roles,
          ...(shortfall ? { shortfall } : {}),
        }),
      );
    } else {
      const why = policy?.approval && policy.reason ? ` (${policy.reason})` : '';
      errors.push(
        makeIssue('AXAG_APPROVAL_MISSING', {
          intent: tool,
          message: `${notEnough}${tool} needs an approval from one of: ${approval.roles.join(', ') || 'an approver'}${why}.`,
          path: '$.approval_token',
          approver_roles: approval.roles,
          approvers_required: approval.approversRequired,
          ...(shortfall ? { shortfall } : {}),
        }),
      );
    }
  }
  return { decision: decideFromIssues(errors, policy?.transformed ?? false), errors, approval, approvalTokenUsed };
}

/**
 * A transform's rewritten arguments are held to the whole contract, as the agent's were: the
 * schema, the tenant and user scope and the preconditions (a transform that sets another
 * tenant's id or an amount over a precondition's bound is refused, not run). What the agent's
 * own arguments already failed is not reported twice. A call that redeems an approval runs
 * with exactly the arguments a person approved: a transform that would change them refuses it.
 */
function transformRefusal(
  contract: CompiledContract,
  call: { arguments: unknown; context: CallContext },
  policy: PolicyOutcome,
  checkErrors: readonly ValidationIssue[],
  approvalCheck: TokenCheck | null,
): ValidationIssue | null {
  const tool = contract.document.id;
  const by = policy.decidedBy;
  const already = new Set(checkErrors.map((issue) => `${issue.code} ${issue.path}`));
  const invalid = checkPreCall({ contract, arguments: policy.arguments, context: call.context }).errors.filter(
    (issue) => !already.has(`${issue.code} ${issue.path}`),
  );
  if (invalid.length > 0) {
    return makeIssue('AXAG_POLICY_TRANSFORM_INVALID', {
      intent: tool,
      message: `Policy ${by?.policy_id ?? ''} rewrote the arguments into ones the contract refuses: ${invalid
        .slice(0, 3)
        .map((i) => `${i.code} at ${i.path}`)
        .join('; ')}.`,
      policy_id: by?.policy_id ?? null,
      rule: by?.rule ?? null,
      issues: invalid.slice(0, 10).map((i) => ({ code: i.code, path: i.path, message: i.message })),
    });
  }
  if (approvalCheck?.ok && hashCanonical(policy.arguments) !== hashCanonical(call.arguments)) {
    return makeIssue('AXAG_POLICY_TRANSFORM_INVALID', {
      intent: tool,
      message: `Policy ${by?.policy_id ?? ''} would rewrite the arguments a person approved; the call runs with the approved arguments or not at all. Ask for a new approval.`,
      path: '$.approval_token',
      policy_id: by?.policy_id ?? null,
      rule: by?.rule ?? null,
      reason: 'rewrites_approved_arguments',
    });
  }
  return null;
}
