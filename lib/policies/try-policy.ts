import { z } from 'zod';
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import { simulatedHistory, type SimulatedCall } from '../history/simulated-history';
import { MAX_WINDOW_SECONDS } from '../history/history-terms';
import { plainObject } from '../json';
import { CallContextSchema, type CallContext } from '../validation/call-context';
import type { ValidationIssue } from '../validation/error-codes';
import { DECISIONS, type Decision } from '../decisions';
import { compilePolicy } from './compile-policy';
import { evaluatePolicies, type EvaluationStep } from './evaluate-policies';
import type { PolicyRef } from './policy-evidence';

/**
 * The policy playground ("Try a request"): one call against a draft policy, with a declared
 * past instead of the tenant's counters, decided by the same evaluator validate/pre uses. The
 * draft is evaluated alone, so the answer is what this policy decides, not what the tenant's
 * other published policies would add. Nothing is read or stored here; the caller resolves the
 * tool's side-effect level.
 */

export const TRY_MAX_SIMULATED_CALLS = 1000;

const SimulatedCallSchema = z
  .object({
    tool: z.string().min(1).max(128).describe('The tool id of the past call.'),
    arguments: plainObject("Its arguments; default: the tried call's.").optional(),
    context: CallContextSchema.optional().describe("Who made it; default: the tried call's context."),
    api_key_id: z.string().min(1).max(128).nullable().optional().describe("The API key it was made with; default: the tried call's."),
    decision: z
      .enum(DECISIONS)
      .default('allow')
      .describe('How it was decided; only allowed (allow, transform) calls count for limits and for history by default.'),
    seconds_ago: z
      .number()
      .min(0)
      .max(MAX_WINDOW_SECONDS)
      .describe('How long before the tried call it was made, in seconds (at most 31 days: the history Toolgate keeps).'),
  })
  .strict();

export const TryPolicyRequestSchema = z
  .object({
    policy: plainObject('The draft policy document, as the studio holds it; it need not be saved.'),
    tool: z.string().min(1).max(128).describe('The tool id of the tried call.'),
    arguments: plainObject('The arguments of the tried call.').default({}),
    context: CallContextSchema.default({}),
    api_key_id: z.string().min(1).max(128).optional().describe('The calling API key id, for `key` scopes; default: none.'),
    side_effect_level: z
      .enum(SIDE_EFFECT_LEVELS)
      .optional()
      .describe("The tool's side-effect level when the tenant has no published contract for it; default `none`."),
    history: z
      .array(SimulatedCallSchema)
      .max(TRY_MAX_SIMULATED_CALLS)
      .default([])
      .describe('Calls made before the tried one: what limits and history functions count.'),
  })
  .strict();

export type TryPolicyRequest = z.infer<typeof TryPolicyRequestSchema>;

/** Where the side-effect level came from: the published contract, the request, or the default `none`. */
export type SideEffectSource = 'contract' | 'request' | 'default';

export interface LimitStanding {
  policy_id: string;
  limit_id: string;
  kind: 'calls' | 'sum';
  per: string;
  window: string;
  max: number;
  used: number;
  amount: number;
  remaining: number;
  exceeded: boolean;
  when_exceeded: 'deny' | 'require_approval';
  retry_after_seconds: number | null;
}

export interface TryAnswer {
  policy: { id: string; version: string };
  tool: string;
  side_effect: { level: SideEffectLevel; source: SideEffectSource; contract_version: string | null };
  decision: Decision;
  decided_by: PolicyRef | null;
  reason: string | null;
  errors: ValidationIssue[];
  /** The arguments after the policy's transforms; null when nothing was set. */
  transformed_arguments: Record<string, unknown> | null;
  approval: { roles: string[]; approvers_required: number; expires_in_seconds: number | null; escalated: boolean } | null;
  limits: LimitStanding[];
  trace: EvaluationStep[];
  simulated_calls: number;
}

export interface PolicyProblem {
  path: string;
  message: string;
}

export type TryPolicyResult = { ok: true; answer: TryAnswer } | { ok: false; problems: PolicyProblem[] };

export function tryPolicy(options: {
  document: Record<string, unknown>;
  tool: string;
  arguments: Record<string, unknown>;
  context: CallContext;
  apiKeyId?: string | null;
  history: readonly SimulatedCall[];
  sideEffect: { level: SideEffectLevel; source: SideEffectSource; contractVersion?: string | null };
  nowMs: number;
}): TryPolicyResult {
  const compiled = compilePolicy(options.document);
  if (!compiled.ok) return { ok: false, problems: compiled.problems.map(splitProblem) };
  const policy = compiled.policy;
  const call = { tool: options.tool, arguments: options.arguments, context: options.context, apiKeyId: options.apiKeyId ?? null };
  // A past call declared without arguments or context repeats the tried call's: "the same call,
  // twice in the last hour" is what an author means most often, and a per-user limit would
  // otherwise count it for nobody.
  const calls = options.history.map((past) => ({
    ...past,
    arguments: past.arguments ?? options.arguments,
    context: past.context ?? options.context,
  }));
  const history = simulatedHistory({ policies: [policy], calls, call, nowMs: options.nowMs });
  const trace: EvaluationStep[] = [];
  const outcome = evaluatePolicies([policy], { ...call, sideEffectLevel: options.sideEffect.level }, { history, trace });

  const limitTerms = new Map(policy.limits.map((limit) => [limit.id, limit]));
  return {
    ok: true,
    answer: {
      policy: { id: policy.id, version: policy.version },
      tool: options.tool,
      side_effect: {
        level: options.sideEffect.level,
        source: options.sideEffect.source,
        contract_version: options.sideEffect.contractVersion ?? null,
      },
      decision: outcome.decision,
      decided_by: outcome.decidedBy,
      reason: outcome.reason,
      errors: outcome.issues,
      transformed_arguments: outcome.transformed ? outcome.arguments : null,
      approval: outcome.approval && {
        roles: outcome.approval.roles,
        approvers_required: outcome.approval.approversRequired,
        expires_in_seconds: outcome.approval.expiresInSeconds,
        escalated: outcome.approval.escalated,
      },
      // The observation (series, scope hash, buckets) is the commit's business, not the author's.
      limits: outcome.limits.map((check) => ({
        policy_id: check.policy_id,
        limit_id: check.limit_id,
        kind: check.kind,
        per: limitTerms.get(check.limit_id)?.per ?? '',
        window: limitTerms.get(check.limit_id)?.window ?? '',
        max: check.max,
        used: check.used,
        amount: check.amount,
        remaining: Math.max(0, check.max - check.used),
        exceeded: check.exceeded,
        when_exceeded: check.when_exceeded,
        retry_after_seconds: check.retry_after_seconds,
      })),
      trace,
      simulated_calls: calls.length,
    },
  };
}

/** compilePolicy's `path: message` problems as the studio shows them (the error envelope's details.problems). */
function splitProblem(problem: string): PolicyProblem {
  const at = problem.indexOf(': ');
  return at < 0 ? { path: '(root)', message: problem } : { path: problem.slice(0, at), message: problem.slice(at + 2) };
}
