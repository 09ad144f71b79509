import type { PolicyEvidence } from './policy-evidence';

/**
 * The `policy` evidence column, read defensively: it is JSON text written by the policy layer,
 * and a page must still render a record whose JSON is missing, older or malformed.
 */
export function parsePolicyEvidence(text: string | null | undefined): PolicyEvidence | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Partial<PolicyEvidence>;
  return {
    decision: v.decision ?? 'allow',
    reason: typeof v.reason === 'string' ? v.reason : null,
    decided_by: v.decided_by && typeof v.decided_by === 'object' ? v.decided_by : null,
    evaluated: Array.isArray(v.evaluated) ? v.evaluated : [],
    ...(v.transformed && typeof v.transformed === 'object' ? { transformed: v.transformed } : {}),
    ...(v.approval && typeof v.approval === 'object' ? { approval: v.approval } : {}),
    shadow: Array.isArray(v.shadow) ? v.shadow.filter((s) => s && typeof s === 'object') : [],
    ...(Array.isArray(v.limits) ? { limits: v.limits.filter((l) => l && typeof l === 'object' && typeof l.limit_id === 'string') } : {}),
    duration_ms: typeof v.duration_ms === 'number' && Number.isFinite(v.duration_ms) && v.duration_ms >= 0 ? v.duration_ms : 0,
  };
}
