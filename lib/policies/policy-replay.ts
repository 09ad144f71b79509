import { createCostMeter, HISTORY_COUNT_STEPS, REPLAY_COST_LIMIT, replayCallMeter, spendSteps } from '../contracts/condition-cost';
import { timeSlices } from '../jobs/time-slice';
import type { CompiledContract } from '../contracts/compile-contract';
import type { Decision } from '../decisions';
import { historyIncrements } from '../history/call-history';
import { CounterRows } from '../history/counter-rows';
import { HistoryView } from '../history/history-view';
import { decideCall } from '../validation/decide-call';
import type { ValidationIssue } from '../validation/error-codes';
import type { CompiledPolicy } from './compile-policy';
import { evaluatePolicies, type PolicyCall } from './evaluate-policies';

/**
 * The pure half of the policy impact preview: recorded calls decided twice, by the tenant's
 * enforced policies and by the same policies with the draft in place of the enforced version of
 * its id (or added), as shadow evaluation decides a shadow version. Both sides are decided now,
 * so what differs is the draft's doing, not what changed since the call was recorded.
 *
 * Each side keeps its own history of the replayed calls, oldest first, each counted with the
 * decision that side reached, exactly as the evidence commit counts a live call: a limit the
 * draft adds sees the calls it would itself have let through, not the ones the enforced
 * policies let through. Only replayed calls are in it (nothing from before the window, nor
 * calls without retained arguments).
 */

export interface ReplayedCall {
  evidenceId: string;
  callId: string;
  at: Date;
  /** The call as validate/pre evaluated it, with the side-effect level of its recorded contract version. */
  call: PolicyCall;
  /** The contract version it was recorded with. */
  contract: CompiledContract;
  /** What the recorded call was refused for outside the policy step (the contract's checks, the confirmation): the same on both sides. */
  otherErrors: ValidationIssue[];
  /** The recorded call redeemed an approval: on either side, a requirement to approve it is met. */
  approved: boolean;
}

/** How one side decided a call. */
export interface SideOutcome {
  decision: Decision;
  /** The policy and its rule or section that decided, when a policy did. */
  policy: string | null;
  rule: string | null;
  codes: string[];
}

export interface ReplayChange {
  evidenceId: string;
  callId: string;
  tool: string;
  at: Date;
  before: SideOutcome;
  after: SideOutcome;
}

export interface ReplaySummary {
  replayed: number;
  /** Calls whose decision or error codes differ. */
  changed: number;
  /** Changed calls by (before decision, after decision), most first. */
  transitions: { from: Decision; to: Decision; calls: number }[];
  /** Per error code: how many replayed calls gain it and lose it. */
  codes: { code: string; added: number; removed: number }[];
  /** Up to MAX_EXAMPLES changed calls, newest first. */
  examples: ReplayChange[];
}

export const MAX_EXAMPLES = 50;

/** The enforced policies with `draft` where the enforced version of its id was, kept in the order validate/pre uses (by id). */
export function withDraft(enforced: readonly CompiledPolicy[], draft: CompiledPolicy): CompiledPolicy[] {
  return [...enforced.filter((p) => p.id !== draft.id), draft].sort((a, b) => a.id.localeCompare(b.id));
}

/** One side: a policy set and the history of what it decided so far. */
class Side {
  private readonly rows = new CounterRows();
  // One budget for every call this side replays (up to 1,000; viewers may run a preview).
  private readonly meter = createCostMeter(REPLAY_COST_LIMIT);
  private readonly tracked;

  constructor(private readonly policies: readonly CompiledPolicy[]) {
    this.tracked = policies.flatMap((policy) => policy.historyQueries);
  }

  decide(replayed: ReplayedCall): SideOutcome {
    const { call } = replayed;
    const nowMs = replayed.at.getTime();
    const identity = { apiKeyId: call.apiKeyId ?? null, context: call.context, arguments: call.arguments };
    // Built on the rows of the calls before this one only, so windows end at this call as they did live.
    const history = new HistoryView(this.rows, identity, nowMs);
    // Reading and counting the tracked history series is work of its own, on the same budget: a
    // draft whose rules ask 15,000 history questions took 8 s to replay 267 calls. Once it is
    // spent the side decides on no history (its conditions fail closed on the spent budget too).
    const counted = this.tracked.length === 0 || spendSteps(this.meter, this.tracked.length * HISTORY_COUNT_STEPS);
    // The rules on the gate's own budget for a call, within what is left of this side's.
    const rules = replayCallMeter(this.meter);
    const outcome =
      this.policies.length > 0 ? evaluatePolicies(this.policies, call, { history: counted ? history : null, meter: rules.meter }) : null;
    rules.settle();
    const decided = decideCall({
      contract: replayed.contract,
      call,
      checkErrors: replayed.otherErrors,
      confirmationIssues: [],
      policy: outcome,
      approvalCheck: replayed.approved ? { ok: true, id: 'recorded' } : null,
    });
    // Counted like the evidence commit counts a live call (with the arguments it runs with, so a
    // transform that caps an amount spends the cap), and added to as the replay goes: rebuilding
    // each call's history from all calls before it, as simulatedHistory would, costs O(n²).
    const ran = outcome?.transformed ? outcome.arguments : call.arguments;
    if (counted)
      for (const inc of historyIncrements(this.tracked, { ...identity, arguments: ran, tool: call.tool }, decided.decision, nowMs)) {
        this.rows.add(inc.series, inc.scope, inc.bucket, 1, inc.total, inc.at);
      }
    const decidedBy = outcome?.decidedBy ?? null;
    return {
      decision: decided.decision,
      policy: decidedBy?.policy_id ?? null,
      rule: decidedBy?.rule ?? null,
      codes: [...new Set(decided.errors.map((e) => e.code))].sort(),
    };
  }
}

/** Replays `calls` (oldest first) against the enforced policies and against them with the draft. */
export async function replayPolicyDraft(options: {
  enforced: readonly CompiledPolicy[];
  draft: CompiledPolicy;
  calls: readonly ReplayedCall[];
}): Promise<ReplaySummary> {
  const before = new Side(options.enforced);
  const after = new Side(withDraft(options.enforced, options.draft));
  const transitions = new Map<string, { from: Decision; to: Decision; calls: number }>();
  const codes = new Map<string, { added: number; removed: number }>();
  const bump = (code: string, key: 'added' | 'removed') => {
    const entry = codes.get(code) ?? { added: 0, removed: 0 };
    entry[key] += 1;
    codes.set(code, entry);
  };
  const changes: ReplayChange[] = [];
  let changed = 0;

  // Seconds of replay on the gate's thread: other calls are answered between replayed ones.
  const pause = timeSlices();
  for (const replayed of options.calls) {
    await pause();
    const was = before.decide(replayed);
    const would = after.decide(replayed);
    if (was.decision === would.decision && was.codes.join(',') === would.codes.join(',')) continue;
    changed += 1;
    const key = `${was.decision}>${would.decision}`;
    const transition = transitions.get(key) ?? { from: was.decision, to: would.decision, calls: 0 };
    transition.calls += 1;
    transitions.set(key, transition);
    for (const code of would.codes) if (!was.codes.includes(code)) bump(code, 'added');
    for (const code of was.codes) if (!would.codes.includes(code)) bump(code, 'removed');
    changes.push({
      evidenceId: replayed.evidenceId,
      callId: replayed.callId,
      tool: replayed.call.tool,
      at: replayed.at,
      before: was,
      after: would,
    });
    if (changes.length > MAX_EXAMPLES) changes.shift();
  }

  return {
    replayed: options.calls.length,
    changed,
    transitions: [...transitions.values()].sort((a, b) => b.calls - a.calls || a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
    codes: [...codes.entries()]
      .map(([code, c]) => ({ code, ...c }))
      .sort((a, b) => b.added + b.removed - (a.added + a.removed) || a.code.localeCompare(b.code)),
    examples: changes.reverse(),
  };
}
