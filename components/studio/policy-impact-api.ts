import type { Decision } from '@/lib/decisions';
import { isJsonObject } from '@/lib/json';
import { call, type ApiResult } from './studio-api';

/** How one side decided a replayed call: the enforced policies, or them with the draft. */
export interface PolicyImpactOutcome {
  decision: Decision;
  policy: string | null;
  rule: string | null;
  codes: string[];
}

export interface PolicyImpactChange {
  evidenceId: string;
  callId: string;
  tool: string;
  /** ISO time the call was recorded. */
  at: string;
  before: PolicyImpactOutcome;
  after: PolicyImpactOutcome;
}

/** The answer of `POST /api/v1/policies/{id}/impact` (see lib/policies/policy-impact.ts). */
export interface PolicyImpactResult {
  policy: { id: string; version: string };
  replaces: string | null;
  replayed: number;
  notReplayable: number;
  withoutArguments: number;
  withoutContext: number;
  refusedBeforePolicies: number;
  redactedArguments: number;
  changed: number;
  transitions: { from: Decision; to: Decision; calls: number }[];
  codes: { code: string; added: number; removed: number }[];
  examples: PolicyImpactChange[];
}

const DECISIONS: readonly Decision[] = ['allow', 'transform', 'require_approval', 'escalate', 'deny'];

const record = (value: unknown): Record<string, unknown> => (isJsonObject(value) ? (value as Record<string, unknown>) : {});
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);
const text = (value: unknown) => (typeof value === 'string' ? value : null);
const decision = (value: unknown): Decision | null => DECISIONS.find((d) => d === value) ?? null;

function outcome(value: unknown): PolicyImpactOutcome | null {
  const o = record(value);
  const decided = decision(o.decision);
  if (!decided) return null;
  const codes = Array.isArray(o.codes) ? o.codes.filter((c): c is string => typeof c === 'string').slice(0, 100) : [];
  return { decision: decided, policy: text(o.policy), rule: text(o.rule), codes };
}

/** Reads an impact answer without trusting its shape: missing counts are 0, junk entries dropped. */
export function readPolicyImpact(body: unknown): PolicyImpactResult {
  const b = record(body);
  const policy = record(b.policy);
  const examples: PolicyImpactChange[] = [];
  for (const entry of (Array.isArray(b.examples) ? b.examples : []).slice(0, 50)) {
    const e = record(entry);
    const before = outcome(e.before);
    const after = outcome(e.after);
    if (typeof e.callId !== 'string' || typeof e.at !== 'string' || !before || !after) continue;
    examples.push({ evidenceId: String(e.evidenceId ?? ''), callId: e.callId, tool: String(e.tool ?? ''), at: e.at, before, after });
  }
  return {
    policy: { id: String(policy.id ?? ''), version: String(policy.version ?? '') },
    replaces: text(b.replaces),
    replayed: count(b.replayed),
    notReplayable: count(b.notReplayable),
    withoutArguments: count(b.withoutArguments),
    withoutContext: count(b.withoutContext),
    refusedBeforePolicies: count(b.refusedBeforePolicies),
    redactedArguments: count(b.redactedArguments),
    changed: count(b.changed),
    transitions: (Array.isArray(b.transitions) ? b.transitions : []).slice(0, 25).flatMap((entry) => {
      const t = record(entry);
      const from = decision(t.from);
      const to = decision(t.to);
      return from && to ? [{ from, to, calls: count(t.calls) }] : [];
    }),
    codes: (Array.isArray(b.codes) ? b.codes : [])
      .map(record)
      .filter((c) => typeof c.code === 'string')
      .slice(0, 200)
      .map((c) => ({ code: String(c.code), added: count(c.added), removed: count(c.removed) })),
    examples,
  };
}

/** Replays a policy draft (saved or not) against the tenant's recent recorded calls, beside the enforced policies. */
export function previewPolicyImpact(apiBase: string, id: string, document: unknown): Promise<ApiResult<PolicyImpactResult>> {
  return call(`${apiBase}/${encodeURIComponent(id)}/impact`, { method: 'POST', body: JSON.stringify(document) }, readPolicyImpact);
}
