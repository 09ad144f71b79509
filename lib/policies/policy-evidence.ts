import type { Decision } from '../decisions';

/** Which published policy version, and which part of it, produced a decision. */
export interface PolicyRef {
  policy_id: string;
  version: string;
  /** A rule id, or one of the built-in sections: `capability`, `side_effect_ceiling`, `arg_constraints`, `approval`. */
  rule: string;
}

/** One policy's verdict on a call. */
export interface PolicyVerdict extends PolicyRef {
  decision: Decision;
  reason: string | null;
}

/** A shadow version's would-be decision, recorded beside the enforced one; it decides nothing. */
export interface ShadowEvaluation {
  kind: 'policy' | 'contract';
  id: string;
  version: string;
  decision: Decision;
  rule: string | null;
  codes: string[];
  /** Whether the whole call would have been decided differently. */
  differs: boolean;
}

/**
 * What evidence keeps of the policy layer's part in a decision (the `policy` column, JSON).
 * This JSON is in the chained hash, so it holds only hashes of transformed arguments; the
 * arguments themselves, redacted and only with argument retention, are a raw payload
 * (`payload.transformed_arguments`) that the retention purge can remove.
 */
export interface PolicyEvidence {
  decision: Decision;
  reason: string | null;
  decided_by: PolicyRef | null;
  evaluated: PolicyVerdict[];
  /** `arguments`: only in records written before raw payloads moved out of the hashed JSON. */
  transformed?: { args_hash: string; original_args_hash: string; arguments?: unknown };
  /** For require_approval and escalate: who decides, how many, and for how long. */
  approval?: { roles: string[]; approvers_required: number; expires_in_seconds: number | null; escalated: boolean };
  shadow?: ShadowEvaluation[];
  /** Where the call stood against each limit that applied to it, before it was counted. */
  limits?: { policy_id: string; limit_id: string; used: number; amount: number; max: number; exceeded: boolean }[];
  duration_ms: number;
}
