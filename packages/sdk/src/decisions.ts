/**
 * The decisions Toolgate answers a tool call with: the one vocabulary that policies name in
 * their rules, the validator answers with, evidence records and the dashboard filters by.
 */
export const DECISIONS = ['allow', 'deny', 'transform', 'require_approval', 'escalate'] as const;
export type Decision = (typeof DECISIONS)[number];
