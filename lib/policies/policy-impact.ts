import { db } from '../db';
import { seqsAt } from '../evidence/seq-at';
import { AppError } from '../errors';
import { isJsonObject } from '../json';
import { recordedContext, redactedPaths } from '../contracts/impact-preview';
import { IMPACT_MAX_CALLS, IMPACT_WINDOW_DAYS } from '../contracts/impact-window';
import { resolveContract, type ResolveOutcome } from '../contracts/resolve-contract';
import { COUNTED_DECISIONS } from '../history/series';
import type { ValidationIssue } from '../validation/error-codes';
import { compilePolicy } from './compile-policy';
import { loadPolicies } from './load-policies';
import { replayPolicyDraft, type ReplayedCall, type ReplaySummary } from './policy-replay';
import { tenantEvidence } from '../evidence/tenant-key';

/**
 * The impact preview of a policy draft (after Styra's decision replay, as contracts have it):
 * the tenant's recent recorded validate/pre calls, of any tool, decided by the enforced
 * policies and by the same policies with the draft in place (lib/policies/policy-replay.ts),
 * and which decisions would change.
 *
 * A call is replayed only with its arguments and its context retained (argument retention on):
 * conditions, limits per user or session and history read both, and a made-up context would
 * report changes that are not there. Arguments stored redacted are replayed as stored (the
 * placeholder), and counted. Calls no policy ever saw (unknown tool or version, numbers a
 * double cannot hold) are not replayed: they are refused before policies whatever they say.
 * What the recorded call was refused for outside the policy step (the contract's checks, the
 * confirmation) stays as recorded on both sides; approvals are single-use and a person's, so a
 * call that redeemed one counts as approved on both sides, and a denial found for it live is
 * not looked up again.
 */

/** Codes the policy step and the approval it asks for add; everything else a recorded call was refused for is kept on both sides. */
const POLICY_STEP_CODES: ReadonlySet<string> = new Set([
  'AXAG_TOOL_NOT_ALLOWED',
  'AXAG_SIDE_EFFECT_CEILING',
  'AXAG_ARGUMENT_NOT_ALLOWED',
  'AXAG_RATE_LIMITED',
  'AXAG_BUDGET_EXCEEDED',
  'AXAG_POLICY_DENIED',
  'AXAG_POLICY_EVALUATION_FAILED',
  'AXAG_POLICY_TRANSFORM_INVALID',
  'AXAG_APPROVAL_MISSING',
  'AXAG_APPROVAL_INVALID',
  'AXAG_APPROVAL_DENIED',
  'AXAG_ESCALATION_REQUIRED',
]);

/** A call refused for a number a double cannot hold: nothing else was checked (docs/numbers.md). */
const NUMBER_UNREPRESENTABLE = 'AXAG_NUMBER_UNREPRESENTABLE';

export interface PolicyImpactPreview extends ReplaySummary {
  policy: { id: string; version: string };
  /** The enforced version of the same policy id the draft was put in place of; null when the draft adds a policy. */
  replaces: string | null;
  /** The oldest recorded call considered. */
  since: Date;
  /** Calls in the window that were not replayed: withoutArguments + withoutContext + refusedBeforePolicies. */
  notReplayable: number;
  /** Recorded without their arguments (retention off, or purged). */
  withoutArguments: number;
  /** Recorded with arguments but not with their context, or with a redacted value in it. */
  withoutContext: number;
  /** Refused before any policy was evaluated (unknown tool or contract version, numbers a double cannot hold). */
  refusedBeforePolicies: number;
  /** Replayed calls with argument values stored redacted: conditions reading them saw the placeholder. */
  redactedArguments: number;
  /** Limits and history functions counted only the replayed calls before each one, not the live counters. */
  history: 'replayed_calls';
}

export async function previewPolicyImpact(options: {
  tenantId: string;
  document: unknown;
  sinceDays?: number;
}): Promise<PolicyImpactPreview> {
  const compiled = compilePolicy(options.document);
  if (!compiled.ok) {
    const problems = compiled.problems.slice(0, 50).map(splitProblem);
    const first = problems[0];
    throw new AppError(
      'policy_invalid',
      `The draft policy does not compile: ${first ? `${first.path}: ${first.message}` : 'unknown problem'}`,
      {
        problems,
      },
    );
  }
  const draft = compiled.policy;
  const { tenantId } = options;
  const { enforced } = await loadPolicies(tenantId);
  const since = new Date(Date.now() - (options.sinceDays ?? IMPACT_WINDOW_DAYS) * 24 * 3600 * 1000);
  // The window as a seq range of (tenantKey, seq): there is no index on createdAt (seq-at.ts).
  const [[fromSeq], tenant] = await Promise.all([seqsAt(tenantId, [since]), tenantEvidence(tenantId)]);
  const where = { ...tenant, kind: 'pre', seq: { gte: fromSeq ?? 0 }, createdAt: { gte: since } };
  const [rows, withoutArgumentsCount] = await Promise.all([
    db().evidence.findMany({
      where: { ...where, arguments: { not: null } },
      orderBy: { seq: 'desc' },
      take: IMPACT_MAX_CALLS,
      select: {
        id: true,
        callId: true,
        createdAt: true,
        tool: true,
        apiKeyId: true,
        contractVersion: true,
        arguments: true,
        payload: true,
        errors: true,
        decision: true,
        policy: true,
      },
    }),
    db().evidence.count({ where: { ...where, arguments: null } }),
  ]);

  const contracts = new Map<string, Promise<ResolveOutcome>>();
  const contractOf = (tool: string, version: string) => {
    const key = `${tool}\n${version}`;
    let found = contracts.get(key);
    if (!found) {
      found = resolveContract({ tenantId, tool, version });
      contracts.set(key, found);
    }
    return found;
  };

  let withoutArguments = withoutArgumentsCount;
  let withoutContext = 0;
  let refusedBeforePolicies = 0;
  let redactedArguments = 0;
  const calls: ReplayedCall[] = [];
  // Oldest first: each call's history is the replayed calls before it.
  for (const row of rows.reverse()) {
    const recorded = parseIssues(row.errors);
    if (!row.contractVersion || recorded.some((issue) => issue.code === NUMBER_UNREPRESENTABLE)) {
      refusedBeforePolicies += 1;
      continue;
    }
    const args = parseJson(row.arguments);
    if (!isJsonObject(args)) {
      withoutArguments += 1;
      continue;
    }
    const context = recordedContext(row.payload);
    if (!context) {
      withoutContext += 1;
      continue;
    }
    const resolved = await contractOf(row.tool, row.contractVersion);
    if (!resolved.found) {
      refusedBeforePolicies += 1;
      continue;
    }
    const contract = resolved.contract.compiled;
    if (redactedPaths(args).size > 0) redactedArguments += 1;
    const recordedPolicy = parseJson(row.policy);
    const policyDecision = isJsonObject(recordedPolicy) ? recordedPolicy.decision : null;
    const neededApproval =
      contract.document.annotations.approval_required || policyDecision === 'require_approval' || policyDecision === 'escalate';
    calls.push({
      evidenceId: row.id,
      callId: row.callId,
      at: row.createdAt,
      call: {
        tool: row.tool,
        sideEffectLevel: contract.document.annotations.side_effect_level,
        arguments: args as Record<string, unknown>,
        context,
        apiKeyId: row.apiKeyId,
      },
      contract,
      otherErrors: recorded.filter((issue) => !POLICY_STEP_CODES.has(issue.code)),
      approved: neededApproval && COUNTED_DECISIONS.has(row.decision),
    });
  }

  return {
    policy: { id: draft.id, version: draft.version },
    replaces: enforced.find((p) => p.id === draft.id)?.version ?? null,
    since,
    ...(await replayPolicyDraft({ enforced, draft, calls })),
    notReplayable: withoutArguments + withoutContext + refusedBeforePolicies,
    withoutArguments,
    withoutContext,
    refusedBeforePolicies,
    redactedArguments,
    history: 'replayed_calls',
  };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function parseIssues(text: string): ValidationIssue[] {
  const value = parseJson(text);
  return Array.isArray(value) ? (value.filter((issue) => isJsonObject(issue) && typeof issue.code === 'string') as ValidationIssue[]) : [];
}

/** compilePolicy's `path: message` problems as the error envelope lists them. */
function splitProblem(problem: string): { path: string; message: string } {
  const at = problem.indexOf(': ');
  return at < 0 ? { path: '(root)', message: problem } : { path: problem.slice(0, at), message: problem.slice(at + 2) };
}
