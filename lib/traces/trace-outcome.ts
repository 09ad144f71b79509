/**
 * How a call ended, read from its trace: what the gate answered at last, what became of the
 * approval it waited for, and what validate/post said of the result. A call held for approval
 * comes back with validate/pre once approved, so the gate's answer is its latest validate/pre.
 */
export type CallOutcome = 'allowed' | 'transformed' | 'denied' | 'held' | 'escalated';
export type ApprovalOutcome = 'pending' | 'approved' | 'denied' | 'expired';
/** `not_run`: the gate never let it run; `not_reported`: it may have run, no validate/post came. */
export type ResultOutcome = 'passed' | 'failed' | 'not_reported' | 'not_run';

export interface TraceOutcome {
  /** Null when the trace has no validate/pre (a validate/post alone, a pipeline or manifest check). */
  call: CallOutcome | null;
  approval: ApprovalOutcome | null;
  result: ResultOutcome;
  /** The same in one sentence, for people. */
  summary: string;
}

const CALL: Record<string, CallOutcome> = {
  allow: 'allowed',
  transform: 'transformed',
  deny: 'denied',
  require_approval: 'held',
  escalate: 'escalated',
};

const APPROVAL: Record<string, ApprovalOutcome> = { pending: 'pending', approved: 'approved', denied: 'denied', expired: 'expired' };

/** `records` in chain order; `approvals` oldest first, each with its status as shown (a pending one past its deadline is expired). */
export function traceOutcome(records: { kind: string; decision: string }[], approvals: { status: string }[]): TraceOutcome {
  const lastPre = records.filter((r) => r.kind === 'pre').at(-1);
  const lastPost = records.filter((r) => r.kind === 'post').at(-1);
  const call = lastPre ? (CALL[lastPre.decision] ?? null) : null;
  const approvalStatus = approvals.at(-1)?.status;
  const approval = approvalStatus ? (APPROVAL[approvalStatus] ?? null) : null;
  const ran = call === 'allowed' || call === 'transformed' || call === null;
  const result: ResultOutcome = lastPost ? (lastPost.decision === 'allow' ? 'passed' : 'failed') : ran ? 'not_reported' : 'not_run';
  return { call, approval, result, summary: summarize(call, approval, result) };
}

function summarize(call: CallOutcome | null, approval: ApprovalOutcome | null, result: ResultOutcome): string {
  const afterApproval = approval === 'approved' ? ' after approval' : '';
  const checked =
    result === 'passed'
      ? 'its result passed the post-call checks'
      : result === 'failed'
        ? 'its result failed the post-call checks'
        : 'no result was reported (validate/post)';
  switch (call) {
    case 'allowed':
      return `Allowed${afterApproval}; ${checked}.`;
    case 'transformed':
      return `Allowed${afterApproval} with rewritten arguments; ${checked}.`;
    case 'denied':
      return approval === 'denied' ? 'Denied: the approver refused it.' : 'Denied before it ran.';
    case 'held':
    case 'escalated': {
      const held = call === 'held' ? 'Held for approval' : 'Escalated for approval';
      if (approval === 'approved') return `${held}; approved, and the agent has not come back to run it yet.`;
      if (approval === 'denied') return `${held}; the approver denied it, so it did not run.`;
      if (approval === 'expired') return `${held}; nobody decided in time, so it did not run.`;
      return `${held}; waiting for a decision.`;
    }
    default:
      return result === 'not_reported' ? 'No validate/pre or validate/post in this trace.' : `No validate/pre in this trace; ${checked}.`;
  }
}
