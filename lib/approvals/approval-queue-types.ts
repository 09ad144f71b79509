import type { ApprovalStatus } from './approval-outcome';

/**
 * The approval queue's shapes, shared by the list API and the dashboard's client component
 * (browser-safe: types only).
 */
export const QUEUE_FILTERS = ['pending', 'decided', 'approved', 'denied', 'expired', 'all'] as const;
export type QueueFilter = (typeof QUEUE_FILTERS)[number];

export interface ApprovalVoteView {
  /** `user:<id>` or `api_key:<id>`. */
  approver: string;
  /** The member's email, when the approver is a member of the tenant. */
  approver_label: string;
  decision: string;
  comment: string | null;
  created_at: string;
}

export interface TraceStepView {
  evidence_id: string;
  kind: string;
  decision: string;
  codes: string[];
  created_at: string;
}

export interface ApprovalQueueItem {
  id: string;
  status: ApprovalStatus;
  outcome: 'pending' | 'approved' | 'denied';
  tool: string;
  version: string;
  side_effect_level: string;
  /** Why the call needs approval (the contract's flag or the policy rule's reason). */
  reason: string;
  /** The arguments being decided on (the edited ones, once edited), sensitive paths redacted; null once decided. */
  arguments: Record<string, unknown> | null;
  /** The arguments were too large to show; they can still be approved as they are. */
  arguments_omitted: boolean;
  edited: boolean;
  args_hash: string;
  original_args_hash: string | null;
  requesting_key: { id: string; name: string; prefix: string } | null;
  /** The end user the agent acted for (context.user_id). */
  user_id: string | null;
  policy: { id: string; version: string | null; rule: string | null } | null;
  approver_roles: string[];
  votes: ApprovalVoteView[];
  approvals: number;
  approvers_required: number;
  escalation_level: number;
  escalated_at: string | null;
  created_at: string;
  expires_at: string;
  /** Seconds until a pending approval expires (0 once decided); the page counts down from expires_at. */
  time_left_seconds: number;
  decided_at: string | null;
  decided_by: string | null;
  /** The decider as people know them: a member's email or a key's name. */
  decided_by_label: string | null;
  comment: string | null;
  call_id: string;
  trace_id: string;
  /** The call's evidence so far, oldest first. */
  trace: TraceStepView[];
}

export interface ApprovalQueuePage {
  approvals: ApprovalQueueItem[];
  next_cursor: string | null;
  counts: { pending: number };
}
