import { createCostMeter, type CostMeter } from '../contracts/condition-cost';
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import { makeIssue, type ValidationIssue } from '../validation/error-codes';
import type { CallContext } from '../validation/check-pre-call';
import type { CompiledLimit, CompiledPolicy } from './compile-policy';
import { checkLimit, limitRefusal, type LimitCheck } from './policy-limits';

export type { LimitCheck } from './policy-limits';
import { HistoryCel } from '../history/history-cel';
import type { HistoryView } from '../history/history-view';
import type { PolicyRef, PolicyVerdict } from './policy-evidence';
import { toolPatternMatches } from './policy-schema';
import type { Decision } from '../decisions';
import { applySet } from './apply-set';
import { checkArgConstraints } from './check-arg-constraints';

/**
 * Evaluates a tenant's published policies on one proposed call. Pure: no I/O, so validate/pre,
 * shadow evaluation, policy test cases and the studio all share it.
 *
 * Inside one policy, in this order: the capability (tool allowed? side-effect ceiling), the
 * argument constraints, then the ordered rules, where the first matching rule decides except
 * that a matching `deny` anywhere wins; the approval section adds its requirement to whatever
 * the rules decided. Across policies the most restrictive verdict wins
 * (deny > escalate > require_approval > transform > allow), so one policy can never allow what
 * another denies. A condition that cannot be evaluated denies (fail closed).
 */

export interface PolicyCall {
  tool: string;
  sideEffectLevel: SideEffectLevel;
  arguments: Record<string, unknown>;
  context: CallContext;
  /** The calling API key (limits and history per `key`); null in tests and the playground. */
  apiKeyId?: string | null;
}

/** One step of evaluating a policy on a call, for the playground's "how each rule evaluated". */
export interface EvaluationStep {
  policy_id: string;
  step: 'capability' | 'side_effect_ceiling' | 'arg_constraints' | 'limit' | 'rule' | 'approval';
  id: string;
  outcome: 'passed' | 'refused' | 'matched' | 'not_matched' | 'not_applicable' | 'skipped' | 'exceeded' | 'error';
  detail?: string;
}

export interface EvaluationOptions {
  /** The caller's history, read for this call; without it every history question sees none. */
  history?: HistoryView | null;
  /** Filled with every step taken, when given. */
  trace?: EvaluationStep[];
  /** The step budget the rules' conditions share (a test run's, a replay's); by default one for this decision. */
  meter?: CostMeter;
}

export interface ApprovalRequirement {
  roles: string[];
  approversRequired: number;
  expiresInSeconds: number | null;
  escalated: boolean;
}

export interface PolicyOutcome {
  decision: Decision;
  reason: string | null;
  decidedBy: PolicyRef | null;
  verdicts: PolicyVerdict[];
  /** Refusals to report to the agent (empty unless the decision is deny). */
  issues: ValidationIssue[];
  /** The arguments after every transform; the call's own object when nothing was set. */
  arguments: Record<string, unknown>;
  transformed: boolean;
  /** The policies and rules whose transforms rewrote the arguments, in the order they applied. */
  transformedBy: PolicyRef[];
  approval: ApprovalRequirement | null;
  /** Every limit that applied to the call, exceeded or not. */
  limits: LimitCheck[];
}

const SEVERITY: Record<Decision, number> = { allow: 0, transform: 1, require_approval: 2, escalate: 3, deny: 4 };
const DEFAULT_ESCALATION_ROLES = ['admin'];

interface Verdict extends PolicyVerdict {
  issues: ValidationIssue[];
  set: Record<string, unknown> | null;
  approval: ApprovalRequirement | null;
}

export function evaluatePolicies(policies: readonly CompiledPolicy[], call: PolicyCall, options: EvaluationOptions = {}): PolicyOutcome {
  const limits: LimitCheck[] = [];
  const history = new HistoryCel(options.history ?? null);
  // One budget for every condition deciding this call: 500 rules of costly conditions are bounded too.
  const meter = options.meter ?? createCostMeter();
  let verdicts = policies.map((policy) => evaluatePolicy(policy, call, { ...options, history, limits, meter }));
  let outcome = combineVerdicts(policies, call, verdicts, limits);
  if (outcome.transformed) {
    // The limits were checked with the agent's arguments, but the call runs with the rewritten
    // ones, and a sum counts what it runs with (record-pre-call.ts): a transform that raised an
    // amount spent a budget past its maximum. Each sum is checked again with what the call adds.
    const overruns = recheckSumLimits(policies, call, outcome.arguments, history, limits, options.trace);
    if (overruns.size > 0) {
      verdicts = verdicts.map((verdict) => overruns.get(verdict.policy_id)?.(verdict) ?? verdict);
      outcome = combineVerdicts(policies, call, verdicts, limits);
    }
  }
  return outcome;
}

/** The call's outcome from every policy's verdict: the most restrictive wins, transforms apply unless it is a deny. */
function combineVerdicts(policies: readonly CompiledPolicy[], call: PolicyCall, verdicts: Verdict[], limits: LimitCheck[]): PolicyOutcome {
  let winner: Verdict | null = null;
  for (const verdict of verdicts) {
    if (!winner || SEVERITY[verdict.decision] > SEVERITY[winner.decision]) winner = verdict;
  }
  const denied = winner?.decision === 'deny';

  let args = call.arguments;
  const transformedBy: PolicyRef[] = [];
  if (!denied) {
    for (const verdict of verdicts) {
      if (!verdict.set) continue;
      args = applySet(args, verdict.set);
      transformedBy.push({ policy_id: verdict.policy_id, version: verdict.version, rule: verdict.rule });
    }
  }
  const transformed = transformedBy.length > 0;
  const approval = denied ? null : mergeApprovals(verdicts.map((v) => v.approval));
  let decision: Decision = winner?.decision ?? 'allow';
  if (decision === 'allow' && transformed) decision = 'transform';
  // A rule's own decision and the approval section can each require approval; the merged
  // requirement is what the call needs, and it escalates if any policy escalated.
  if (approval && SEVERITY[decision] < SEVERITY.require_approval) decision = approval.escalated ? 'escalate' : 'require_approval';

  const decider = winner && winner.decision !== 'allow' ? winner : (verdicts.find((v) => v.rule !== 'default') ?? null);
  return {
    decision,
    reason: decider?.reason ?? (policies.length > 0 ? 'No policy rule matched; allowed by default.' : null),
    decidedBy: decider ? { policy_id: decider.policy_id, version: decider.version, rule: decider.rule } : null,
    verdicts: verdicts.map(({ policy_id, version, rule, decision: d, reason }) => ({ policy_id, version, rule, decision: d, reason })),
    issues: denied ? verdicts.filter((v) => v.decision === 'deny').flatMap((v) => v.issues) : [],
    arguments: args,
    transformed,
    transformedBy,
    approval,
    limits,
  };
}

/**
 * Checks every sum limit that applied to the call again with the arguments it runs with, in
 * `limits` (so the commit re-checks, and counts, that amount). Answers, per policy, how its
 * verdict changes where a limit the agent's arguments fit is past its maximum with the rewritten
 * ones: a hard limit refuses the call, a soft one holds it for approval.
 */
function recheckSumLimits(
  policies: readonly CompiledPolicy[],
  call: PolicyCall,
  ran: Record<string, unknown>,
  history: HistoryCel,
  limits: LimitCheck[],
  trace: EvaluationStep[] | undefined,
): Map<string, (verdict: Verdict) => Verdict> {
  const overruns = new Map<string, (verdict: Verdict) => Verdict>();
  for (const policy of policies) {
    for (const limit of policy.limits) {
      if (!limit.max_sum || !limit.tools.some((pattern) => toolPatternMatches(pattern, call.tool))) continue;
      const index = limits.findIndex((check) => check.policy_id === policy.id && check.limit_id === limit.id);
      const before = limits[index];
      if (!before || before.exceeded) continue;
      const check = checkLimit(policy.id, limit, { arguments: ran }, history);
      if (check.amount === before.amount) continue;
      limits[index] = check;
      if (!check.exceeded || overruns.has(policy.id)) continue;
      trace?.push({
        policy_id: policy.id,
        step: 'limit',
        id: limit.id,
        outcome: 'exceeded',
        detail: `${check.used} of ${check.max} used in ${limit.window} per ${limit.per}; the rewritten arguments add ${check.amount}.`,
      });
      if (limit.when_exceeded === 'deny') {
        const refusal = limitRefusal(policy, limit, check, call.tool);
        overruns.set(policy.id, () => ({
          policy_id: policy.id,
          version: policy.version,
          rule: limit.id,
          decision: 'deny',
          reason: refusal.reason,
          issues: [refusal.issue],
          set: null,
          approval: null,
        }));
      } else {
        overruns.set(policy.id, (verdict) => heldBySoftLimit(verdict, policy, limit, check));
      }
    }
  }
  return overruns;
}

interface PolicyEvaluation {
  history: HistoryCel;
  limits: LimitCheck[];
  meter: CostMeter;
  trace?: EvaluationStep[];
}

function evaluatePolicy(policy: CompiledPolicy, call: PolicyCall, evaluation: PolicyEvaluation): Verdict {
  const ref = { policy_id: policy.id, version: policy.version };
  const step = (kind: EvaluationStep['step'], id: string, outcome: EvaluationStep['outcome'], detail?: string) =>
    evaluation.trace?.push(
      detail === undefined ? { policy_id: policy.id, step: kind, id, outcome } : { policy_id: policy.id, step: kind, id, outcome, detail },
    );
  const { document } = policy;
  const intent = call.tool;
  const deny = (rule: string, reason: string, issues: ValidationIssue[]): Verdict => ({
    ...ref,
    rule,
    decision: 'deny',
    reason,
    issues,
    set: null,
    approval: null,
  });
  const policyDetails = (rule: string) => ({ policy_id: policy.id, policy_version: policy.version, rule });

  const allowedTools = document.capability?.tools;
  if (allowedTools && !allowedTools.some((pattern) => toolPatternMatches(pattern, call.tool))) {
    const reason = `Policy ${policy.id} does not allow the tool ${call.tool}.`;
    step('capability', 'capability', 'refused', reason);
    return deny('capability', reason, [
      makeIssue('AXAG_TOOL_NOT_ALLOWED', {
        intent,
        message: reason,
        ...policyDetails('capability'),
        constraint: { allowed_tools: allowedTools.slice(0, 20) },
      }),
    ]);
  }
  const ceiling = document.capability?.side_effect_ceiling;
  if (ceiling && SIDE_EFFECT_LEVELS.indexOf(call.sideEffectLevel) > SIDE_EFFECT_LEVELS.indexOf(ceiling)) {
    const reason = `${call.tool} has side-effect level ${call.sideEffectLevel}, above policy ${policy.id}'s ceiling ${ceiling}.`;
    step('side_effect_ceiling', 'side_effect_ceiling', 'refused', reason);
    return deny('side_effect_ceiling', reason, [
      makeIssue('AXAG_SIDE_EFFECT_CEILING', {
        intent,
        message: reason,
        ...policyDetails('side_effect_ceiling'),
        constraint: { side_effect_ceiling: ceiling, side_effect_level: call.sideEffectLevel },
      }),
    ]);
  }

  const constraints = checkArgConstraints(policy, call, evaluation.meter);
  if (!constraints.ok) {
    const reason = `The argument constraints of policy ${policy.id} could not be evaluated: ${constraints.error}`;
    step('arg_constraints', 'arg_constraints', 'error', reason);
    return deny('arg_constraints', reason, [
      makeIssue('AXAG_POLICY_EVALUATION_FAILED', { intent, message: reason, ...policyDetails('arg_constraints') }),
    ]);
  }
  const argumentIssues = constraints.issues;
  if (allowedTools || ceiling) step('capability', 'capability', 'passed');
  if (argumentIssues.length > 0) {
    step('arg_constraints', 'arg_constraints', 'refused', argumentIssues.map((i) => i.message).join(' '));
    return deny('arg_constraints', `Arguments outside policy ${policy.id}'s constraints.`, argumentIssues);
  }
  if (policy.argConstraints.length > 0) step('arg_constraints', 'arg_constraints', 'passed');

  let softLimit: { limit: CompiledLimit; check: LimitCheck } | null = null;
  for (const limit of policy.limits) {
    if (!limit.tools.some((pattern) => toolPatternMatches(pattern, call.tool))) {
      step('limit', limit.id, 'not_applicable');
      continue;
    }
    const check = checkLimit(policy.id, limit, call, evaluation.history);
    evaluation.limits.push(check);
    const standing = `${check.used}${check.kind === 'sum' ? '' : ' calls'} of ${check.max} used in ${limit.window} per ${limit.per}; this call adds ${check.amount}.`;
    if (!check.exceeded) {
      step('limit', limit.id, 'passed', standing);
      continue;
    }
    step('limit', limit.id, 'exceeded', standing);
    if (limit.when_exceeded === 'deny') {
      const refusal = limitRefusal(policy, limit, check, intent);
      return deny(limit.id, refusal.reason, [refusal.issue]);
    }
    softLimit ??= { limit, check };
  }

  const activation = { args: call.arguments, context: call.context, history: evaluation.history };
  let first: Verdict | null = null;
  for (const rule of policy.rules) {
    if (!rule.tools.some((pattern) => toolPatternMatches(pattern, call.tool))) {
      step('rule', rule.id, 'not_applicable');
      continue;
    }
    if (rule.condition) {
      const outcome = rule.condition.evaluate(activation, evaluation.meter);
      if (!outcome.ok) {
        const reason = `Rule ${rule.id} of policy ${policy.id} could not be evaluated: ${outcome.error}`;
        step('rule', rule.id, 'error', reason);
        return deny(rule.id, reason, [makeIssue('AXAG_POLICY_EVALUATION_FAILED', { intent, message: reason, ...policyDetails(rule.id) })]);
      }
      if (!outcome.holds) {
        step('rule', rule.id, 'not_matched', `when: ${rule.when} is false.`);
        continue;
      }
    }
    if (first && rule.decision !== 'deny') {
      step('rule', rule.id, 'skipped', `Matched, but rule ${first.rule} decided first; only a deny can still win.`);
      continue;
    }
    step(
      'rule',
      rule.id,
      'matched',
      rule.when === undefined ? `No condition; decides ${rule.decision}.` : `when: ${rule.when} is true; decides ${rule.decision}.`,
    );
    const reason = rule.reason ?? `Rule ${rule.id} of policy ${policy.id} decided ${rule.decision}.`;
    if (rule.decision === 'deny') {
      return deny(rule.id, reason, [
        makeIssue('AXAG_POLICY_DENIED', {
          intent,
          message: `Denied by policy ${policy.id} rule ${rule.id}: ${reason}`,
          ...policyDetails(rule.id),
          reason,
        }),
      ]);
    }
    // Keep looking after the first match only for a deny, which wins wherever it is.
    if (first) continue;
    first = { ...ref, rule: rule.id, decision: rule.decision, reason, issues: [], set: null, approval: null };
    if (rule.decision === 'transform') first.set = rule.set ?? {};
    if (rule.decision === 'require_approval' || rule.decision === 'escalate') {
      const escalated = rule.decision === 'escalate';
      first.approval = {
        roles: rule.roles?.length ? [...rule.roles] : escalated ? DEFAULT_ESCALATION_ROLES : [],
        approversRequired: 1,
        expiresInSeconds: null,
        escalated,
      };
    }
  }

  const decided: Verdict = first ?? { ...ref, rule: 'default', decision: 'allow', reason: null, issues: [], set: null, approval: null };
  const verdict = softLimit ? heldBySoftLimit(decided, policy, softLimit.limit, softLimit.check) : decided;
  const approvalRules = (document.approval?.rules ?? []).filter((rule) =>
    rule.tools.some((pattern) => toolPatternMatches(pattern, call.tool)),
  );
  if (approvalRules.length > 0) {
    step('approval', 'approval', 'matched', `Approval by ${[...new Set(approvalRules.flatMap((r) => r.roles))].join(', ')}.`);
    const section: ApprovalRequirement = {
      roles: [...new Set(approvalRules.flatMap((rule) => rule.roles))],
      approversRequired: Math.max(1, ...approvalRules.map((rule) => rule.approvers_required ?? 1)),
      expiresInSeconds: minDefined(approvalRules.map((rule) => rule.expires_in_seconds)),
      escalated: false,
    };
    verdict.approval = mergeApprovals([verdict.approval, section]);
    if (SEVERITY[verdict.decision] < SEVERITY.require_approval) {
      return {
        ...verdict,
        rule: verdict.rule === 'default' ? 'approval' : verdict.rule,
        decision: 'require_approval',
        reason: `Policy ${policy.id} requires approval for ${call.tool}.`,
      };
    }
  }
  return verdict;
}

/** A soft limit past its maximum holds the call for a person, whatever the rules allowed. */
function heldBySoftLimit(verdict: Verdict, policy: CompiledPolicy, limit: CompiledLimit, check: LimitCheck): Verdict {
  const approval = mergeApprovals([
    verdict.approval,
    { roles: limit.roles?.length ? [...limit.roles] : [], approversRequired: 1, expiresInSeconds: null, escalated: false },
  ]);
  if (SEVERITY[verdict.decision] >= SEVERITY.require_approval) return { ...verdict, approval };
  const reason = `${limit.reason ?? `Limit ${limit.id} of policy ${policy.id}`}: ${check.used} of ${check.max} used per ${limit.per} in ${limit.window}; past it, each call needs approval.`;
  return { ...verdict, approval, rule: limit.id, decision: 'require_approval', reason };
}

export function mergeApprovals(requirements: readonly (ApprovalRequirement | null)[]): ApprovalRequirement | null {
  const present = requirements.filter((r): r is ApprovalRequirement => r !== null);
  if (present.length === 0) return null;
  const escalated = present.some((r) => r.escalated);
  // When escalated, only the escalation's roles decide: that is what routing to a higher role means.
  const deciding = escalated ? present.filter((r) => r.escalated) : present;
  return {
    roles: [...new Set(deciding.flatMap((r) => r.roles))],
    approversRequired: Math.max(1, ...present.map((r) => r.approversRequired)),
    expiresInSeconds: minDefined(present.map((r) => r.expiresInSeconds)),
    escalated,
  };
}

function minDefined(values: readonly (number | null | undefined)[]): number | null {
  const defined = values.filter((v): v is number => typeof v === 'number');
  return defined.length > 0 ? Math.min(...defined) : null;
}
