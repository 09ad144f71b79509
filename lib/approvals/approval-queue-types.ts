import type { ApprovalStatus } from './approval-outcome';
import type { ArgumentsDiff } from './diff-arguments';

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

/** Why the viewer cannot decide (or cannot approve) an approval; see lib/approvals/approver-rights.ts. */
export const CANNOT_DECIDE_CODES = [
  'expired',
  'decided',
  'no_permission',
  'role',
  'requester_key',
  'requester_end_user',
  'requester_key_creator',
  'already_voted',
] as const;
export type CannotDecideCode = (typeof CANNOT_DECIDE_CODES)[number];

/** What the person (or key) asking for the queue may do with one approval, decided on the server. */
export interface ApprovalViewerRights {
  /** May deny (and vote at all). */
  can_decide: boolean;
  can_approve: boolean;
  /** May move it to the admins' queue (not from the admins' queue itself). */
  can_escalate: boolean;
  /** Why deciding, or approving, is out of reach; null when nothing is. */
  cannot_decide_reason: { code: CannotDecideCode; message: string } | null;
}

/** Who escalated a pending approval and what they told the next level. */
export interface ApprovalEscalationView {
  /** `user:<id>` or `api_key:<id>`; null when a policy rule escalated the call up front. */
  by: string | null;
  by_label: string | null;
  at: string | null;
  comment: string | null;
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
  /**
   * Policy transforms rewrote the held call's arguments before anyone decided: `arguments` are
   * the rewritten ones (what runs) and `arguments_diff` the change; null when an approver edited
   * them, or nothing did.
   */
  rewritten_by: { policy_id: string; version: string; rule: string }[] | null;
  args_hash: string;
  original_args_hash: string | null;
  requesting_key: { id: string; name: string; prefix: string } | null;
  /** The end user the agent says it acts for (context.user_id): the agent's claim. */
  user_id: string | null;
  /**
   * The context the agent sent (tenant_id, user_id, roles, state): the agent's unverified claim,
   * kept while the approval is pending; null once decided or when too large to show.
   */
  context: Record<string, unknown> | null;
  context_omitted: boolean;
  /** Edited arguments: what the edit changed against the agent's, redacted; null when not edited or no longer kept. */
  arguments_diff: ArgumentsDiff | null;
  /** Set on an escalated pending approval: who escalated it and their comment for the next level. */
  escalation: ApprovalEscalationView | null;
  /** What the viewer may do, and why not. */
  viewer: ApprovalViewerRights;
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
