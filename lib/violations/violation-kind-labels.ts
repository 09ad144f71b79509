/**
 * What kind of thing went wrong, so that a reader can tell "the agent keeps sending bad
 * arguments" from "a policy is doing its job", "people are being asked" and "the tool itself
 * misbehaves". Browser-safe (no imports): the overview's client component reads it;
 * lib/violations/violation-kinds.ts files each code under a kind.
 */
export const VIOLATION_KINDS = ['arguments', 'policy', 'approval', 'tool'] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export const VIOLATION_KIND_LABELS: Record<ViolationKind, { label: string; help: string }> = {
  arguments: {
    label: 'Agent mistakes',
    help: 'Refused for what the agent sent: arguments, types, ranges, preconditions, an unknown tool, a missing or bad confirmation',
  },
  policy: {
    label: 'Policy refusals',
    help: 'Refused by a rule the tenant set: a policy, a rate limit or budget, an API key scope or a role',
  },
  approval: { label: 'Approval holds', help: 'Held for a person: require_approval or escalate' },
  tool: { label: 'Tool failures', help: 'validate/post checks denied: a result, error or side effect the contract does not allow' },
};
