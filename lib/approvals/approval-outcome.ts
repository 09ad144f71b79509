/** An approval's states. `expired` is final and means denied. Browser-safe. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * What the agent must do with an approval, whatever the reason: wait, run with the token, or
 * not run. An approval nobody decided in time keeps the status `expired` (so people can tell
 * it from a human's denial in the queue history) but its outcome is `denied`, the safe
 * default: nothing undecided is ever approved.
 */
export function approvalOutcome(status: string): 'pending' | 'approved' | 'denied' {
  if (status === 'pending') return 'pending';
  if (status === 'approved') return 'approved';
  return 'denied';
}
