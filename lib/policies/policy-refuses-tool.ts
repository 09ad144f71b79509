import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import type { CompiledPolicy } from './compile-policy';
import { toolPatternMatches } from './policy-schema';

/**
 * What the enforced policies say about a tool before any call of it is seen: whether they refuse
 * every call, and whether some call could be held for approval. Both read only tool patterns
 * and rule kinds, never conditions, so they err on the side of "could".
 */

/**
 * Why the enforced policies refuse every call of a tool whatever its arguments and context, or
 * null: a capability that does not allow it, a side-effect ceiling below it, or a `deny` rule
 * without a condition. What a tool listing for an agent (the MCP gateway's `tools/list`) can
 * leave out; a rule with a `when` may still refuse a given call, which validate/pre decides.
 */
export function policyRefusesTool(policies: readonly CompiledPolicy[], tool: string, level: SideEffectLevel): string | null {
  for (const policy of policies) {
    const { capability, rules } = policy.document;
    if (capability?.tools && !capability.tools.some((pattern) => toolPatternMatches(pattern, tool)))
      return `Policy ${policy.id} does not allow the tool.`;
    const ceiling = capability?.side_effect_ceiling;
    if (ceiling && SIDE_EFFECT_LEVELS.indexOf(level) > SIDE_EFFECT_LEVELS.indexOf(ceiling))
      return `Policy ${policy.id} allows side effects up to ${ceiling}; the tool's level is ${level}.`;
    const rule = rules?.find((r) => r.decision === 'deny' && !r.when && r.tools.some((pattern) => toolPatternMatches(pattern, tool)));
    if (rule) return `Policy ${policy.id} denies the tool (rule ${rule.id}).`;
  }
  return null;
}

/** Whether some call of the tool could need an approval under these policies (conditions and history not evaluated). */
export function policiesMayHoldTool(policies: readonly CompiledPolicy[], tool: string): boolean {
  const matches = (patterns: readonly string[]) => patterns.some((pattern) => toolPatternMatches(pattern, tool));
  return policies.some(
    (policy) =>
      (policy.document.approval?.rules ?? []).some((rule) => matches(rule.tools)) ||
      (policy.document.rules ?? []).some(
        (rule) => (rule.decision === 'require_approval' || rule.decision === 'escalate') && matches(rule.tools),
      ) ||
      policy.limits.some((limit) => limit.when_exceeded === 'require_approval' && matches(limit.tools)),
  );
}
