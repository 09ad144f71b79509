import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import type { CompiledPolicy } from './compile-policy';
import { toolPatternMatches } from './policy-schema';

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
