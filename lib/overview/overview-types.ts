/**
 * The overview's shapes, shared by GET /api/v1/overview and the dashboard's live client
 * component (browser-safe: types and constants only).
 */

import type { ViolationKind } from '../violations/violation-kind-labels';

export const HOUR_MS = 3_600_000;
export const OVERVIEW_WINDOW_MS = 24 * HOUR_MS;

/** What the overview counts in a window of evidence. */
export interface WindowCounts {
  since: string;
  until: string;
  /** validate/pre checks. */
  calls: number;
  /** validate/pre checks denied. */
  refusals: number;
  /** validate/pre checks held for a person (require_approval or escalate). */
  held_for_approval: number;
  /** validate/post checks, and those denied: a result or error that broke the contract. */
  post_checks: number;
  post_failures: number;
}

/** A window next to the same window 24 hours earlier. */
export interface WindowComparison {
  current: WindowCounts;
  previous: WindowCounts;
}

/**
 * One kind of refusal (lib/violations/violation-kinds.ts) in calls: the last hour against the
 * same hour yesterday, the last 24 hours against the 24 before, and whether the hour is a spike
 * (lib/overview/spikes.ts).
 */
export interface RefusalKindCounts {
  kind: ViolationKind;
  hour: { current: number; previous: number };
  day: { current: number; previous: number };
  spike: boolean;
}

export const CHAIN_BREAK_REASONS = ['hash_mismatch', 'prev_hash_mismatch', 'seq_gap', 'head_mismatch', 'payload_mismatch'] as const;
export type ChainBreakReason = (typeof CHAIN_BREAK_REASONS)[number];

/**
 * The newest records of the tenant's chain, verified when the overview was read: each one's
 * hash recomputed and linked to the one before, the last one equal to the chain head. The
 * whole chain is GET /api/v1/evidence/verify; walking a million records on every refresh is not
 * what a dashboard should do.
 */
export interface EvidenceChainHealth {
  checked_at: string;
  /** null when the tenant has no evidence yet. */
  valid: boolean | null;
  records_checked: number;
  from_seq: number | null;
  to_seq: number | null;
  first_broken: { seq: number; reason: ChainBreakReason } | null;
}

export interface FailingWebhookEndpoint {
  id: string;
  /** The receiver's host only: a webhook URL's path often carries a secret token. */
  host: string;
  /** Deliveries in the window that were given up on, and those waiting to be retried. */
  failed: number;
  retrying: number;
  last_error: string | null;
  last_failure_at: string;
}

/** Webhook delivery in the last 24 hours, and the outbox as it stands. */
export interface WebhookHealth {
  /** Registered endpoints (enabled ones; disabled endpoints get no deliveries). */
  endpoints: number;
  since: string;
  delivered: number;
  /** Given up after every attempt failed. */
  failed: number;
  /** Not delivered yet after a failed attempt, and not attempted yet. */
  retrying: number;
  waiting: number;
  /** When the oldest delivery still to be made was queued, of any age: a stalled outbox shows here. */
  oldest_pending_at: string | null;
  /** Endpoints whose latest attempted delivery in the window failed, worst first. */
  failing_endpoints: FailingWebhookEndpoint[];
}

export interface Overview {
  since: string;
  until: string;
  /** validate/pre checks in the last 24 hours, and how many of them were refused or held for approval. */
  calls: number;
  refusals: number;
  held_for_approval: number;
  /** Checks a shadow policy or contract version would have decided differently. */
  shadow_differences: number;
  /** Waiting for a person now (pending and not past the deadline). */
  pending_approvals: number;
  /** The noisiest codes of the last 24 hours; approval holds are left out (they are the approval queue's). */
  top_codes: { code: string; count: number }[];
  /** Refusals and holds split into agent mistakes, policy refusals, approval holds and tool failures. */
  refusal_kinds: RefusalKindCounts[];
  /** The newest evidence record of the tenant, of any age; null when nothing was ever recorded. */
  last_record_at: string | null;
  /** The last hour against the same hour the day before; the last 24 hours against the 24 before. */
  hour: WindowComparison;
  day: WindowComparison;
  evidence_chain: EvidenceChainHealth;
  webhooks: WebhookHealth;
  /** Unrevoked keys that stop working within a week (or have stopped in the last one): their agents need new keys. */
  api_keys_expiring: { count: number; soonest_at: string | null };
}
