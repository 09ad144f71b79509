import type { TokenCheck } from '../approvals/check-call-token';
import type { CompiledContract } from '../contracts/compile-contract';
import { mergeApprovals, type ApprovalRequirement, type PolicyOutcome } from '../policies/evaluate-policies';
import type { Decision } from '../decisions';
import { decideFromIssues } from './decide';
import { makeIssue, type ValidationIssue } from './error-codes';

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
            message: `Policy ${policy.decidedBy?.policy_id ?? ''} rewrote the arguments into ones the contract refuses: ${invalid
              .slice(0, 3)
              .map((i) => `${i.code} at ${i.path}`)
              .join('; ')}.`,
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
    if (check?.ok) approvalTokenUsed = true;
    else if (check) errors.push(check.issue);
    else if (approval.escalated) {
      errors.push(
        makeIssue('AXAG_ESCALATION_REQUIRED', {
          intent: tool,
          message: `${tool} was escalated to ${approval.roles.join(', ') || 'a higher role'} by ${policy?.decidedBy ? `policy ${policy.decidedBy.policy_id} rule ${policy.decidedBy.rule}` : 'a policy'}${policy?.reason ? `: ${policy.reason}` : '.'}`,
          path: '$.approval_token',
          approver_roles: approval.roles,
        }),
      );
    } else {
      const why = policy?.approval && policy.reason ? ` (${policy.reason})` : '';
      errors.push(
        makeIssue('AXAG_APPROVAL_MISSING', {
          intent: tool,
          message: `${tool} needs an approval from one of: ${approval.roles.join(', ') || 'an approver'}${why}.`,
          path: '$.approval_token',
          approver_roles: approval.roles,
          approvers_required: approval.approversRequired,
        }),
      );
    }
  }
  return { decision: decideFromIssues(errors, policy?.transformed ?? false), errors, approval, approvalTokenUsed };
}
