import type { ValidationIssue } from './error-codes';

/** The decisions Toolgate answers with. Policies (a later layer) add transform and escalate. */
export const DECISIONS = ['allow', 'deny', 'transform', 'require_approval', 'escalate'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * Contract checks decide allow or deny; a call whose only problem is a missing approval is
 * `require_approval` (it becomes allowable once approved). Anything else wrong denies, so an
 * approval is never requested for a call that would fail anyway.
 */
export function decideFromIssues(errors: readonly ValidationIssue[]): Decision {
  if (errors.length === 0) return 'allow';
  if (errors.every((issue) => issue.code === 'AXAG_APPROVAL_MISSING')) return 'require_approval';
  return 'deny';
}
