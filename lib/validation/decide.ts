import type { Decision } from '../decisions';
import type { ValidationIssue } from './error-codes';

/**
 * A call whose only problem is a missing approval is `require_approval` (it becomes allowable
 * once approved), or `escalate` when a policy routed it to a higher role. Anything else wrong
 * denies, so an approval is never requested for a call that would fail anyway. `transformed`:
 * a policy rewrote the arguments, so an otherwise clean call is answered `transform`.
 */
export function decideFromIssues(errors: readonly ValidationIssue[], transformed = false): Decision {
  if (errors.length === 0) return transformed ? 'transform' : 'allow';
  if (errors.every((issue) => issue.code === 'AXAG_APPROVAL_MISSING' || issue.code === 'AXAG_ESCALATION_REQUIRED')) {
    return errors.some((issue) => issue.code === 'AXAG_ESCALATION_REQUIRED') ? 'escalate' : 'require_approval';
  }
  return 'deny';
}
