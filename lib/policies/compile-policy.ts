import { RE2JS } from 're2js';
import { compileCondition, type CompiledCondition } from '../contracts/compile-conditions';
import { PolicySchema, type ArgConstraint, type Limit, type Policy, type PolicyRule } from './policy-schema';
import { historyQuery, type HistoryQuery } from '../history/history-query';
import { parseWindow } from '../history/history-terms';
import { zodIssueText } from '../validation/zod-issue-text';

/**
 * A policy document made ready to evaluate: its CEL conditions parsed and type-checked and its
 * argument patterns compiled for RE2, once per published version. Publishing lints the policy,
 * so a published one compiles; the compiler still refuses rather than guesses.
 */

export interface CompiledRule extends PolicyRule {
  condition: CompiledCondition | null;
}

export interface CompiledArgConstraint extends ArgConstraint {
  matcher: RE2JS | null;
}

export interface CompiledLimit extends Limit {
  query: HistoryQuery;
}

export interface CompiledPolicy {
  id: string;
  version: string;
  document: Policy;
  rules: CompiledRule[];
  argConstraints: CompiledArgConstraint[];
  limits: CompiledLimit[];
  /** Every history question the policy asks (limits and conditions): what the evidence commit counts. */
  historyQueries: HistoryQuery[];
}

export type PolicyCompileResult = { ok: true; policy: CompiledPolicy } | { ok: false; problems: string[] };

export function compilePolicy(document: unknown): PolicyCompileResult {
  const parsed = PolicySchema.safeParse(document);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map(zodIssueText) };
  const policy = parsed.data;
  const problems: string[] = [];

  const rules: CompiledRule[] = (policy.rules ?? []).map((rule) => {
    if (rule.when === undefined) return { ...rule, condition: null };
    const compiled = compileCondition({ id: rule.id, expression: rule.when, message: rule.reason ?? `rule ${rule.id}` }, 'policy');
    if (!compiled.ok) {
      problems.push(`rules.${rule.id}.when: ${compiled.message}`);
      return { ...rule, condition: null };
    }
    return { ...rule, condition: compiled.condition };
  });

  const argConstraints: CompiledArgConstraint[] = (policy.arg_constraints ?? []).map((constraint, index) => {
    if (constraint.pattern === undefined) return { ...constraint, matcher: null };
    try {
      return { ...constraint, matcher: RE2JS.compile(constraint.pattern) };
    } catch (error) {
      problems.push(`arg_constraints.${index}.pattern: ${error instanceof Error ? error.message : String(error)}`);
      return { ...constraint, matcher: null };
    }
  });

  const limits: CompiledLimit[] = (policy.limits ?? []).map((limit) => {
    const window = parseWindow(limit.window);
    const seconds = window.ok ? window.seconds : 1;
    const series = { tools: limit.tools, counts: 'counted' as const, sumPath: limit.max_sum?.path ?? null, valuePaths: null };
    return { ...limit, query: historyQuery(series, limit.per, seconds) };
  });
  const ids = new Set<string>();
  for (const limit of limits) {
    if (ids.has(limit.id)) problems.push(`limits.${limit.id}: another limit has this id.`);
    ids.add(limit.id);
  }

  if (problems.length > 0) return { ok: false, problems };
  const historyQueries = [...limits.map((l) => l.query), ...rules.flatMap((r) => r.condition?.historyQueries ?? [])];
  return { ok: true, policy: { id: policy.id, version: policy.version, document: policy, rules, argConstraints, limits, historyQueries } };
}
