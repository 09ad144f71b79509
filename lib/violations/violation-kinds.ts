import { ERROR_CODES, type ErrorCode } from '../validation/error-codes';
import { VIOLATION_KINDS, type ViolationKind } from './violation-kind-labels';

export { VIOLATION_KIND_LABELS, VIOLATION_KINDS, type ViolationKind } from './violation-kind-labels';

/** The decisions that hold a call for a person instead of refusing it (lib/validation/decide.ts). */
export const HOLD_DECISIONS = ['require_approval', 'escalate'] as const;

/** The codes that hold a call for a person: the approval queue's business, not noise. */
export const APPROVAL_HOLD_CODES: readonly ErrorCode[] = ['AXAG_APPROVAL_MISSING', 'AXAG_ESCALATION_REQUIRED'];

// Only validate/post finds these: the tool's result, its error or its side effects broke the contract.
const TOOL_TYPES: ReadonlySet<string> = new Set(['output_error', 'postcondition_error', 'side_effect_error', 'error_semantics_error']);
// Rules someone set on purpose. A denied approval is a person's refusal, so it counts here too.
const POLICY_TYPES: ReadonlySet<string> = new Set(['policy_error', 'security_error', 'authorization_error']);
const POLICY_EXTRA_CODES: ReadonlySet<string> = new Set<ErrorCode>(['AXAG_APPROVAL_DENIED']);

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

export const TOOL_FAILURE_CODES: readonly string[] = CODES.filter((code) => TOOL_TYPES.has(ERROR_CODES[code].type));
export const POLICY_REFUSAL_CODES: readonly string[] = CODES.filter(
  (code) => POLICY_TYPES.has(ERROR_CODES[code].type) || POLICY_EXTRA_CODES.has(code),
);

const TOOL_SET = new Set(TOOL_FAILURE_CODES);
const POLICY_SET = new Set(POLICY_REFUSAL_CODES);

/**
 * The kind of one violation, from its code and the decision of the call it belongs to. A held
 * call's violations are approval holds; otherwise the code decides, and everything that is
 * neither a rule nor the tool (including codes this version does not know) is the agent's.
 * lib/violations/list-violations.ts filters with the same rules in SQL.
 */
export function violationKind(violation: { code: string; decision: string }): ViolationKind {
  if ((HOLD_DECISIONS as readonly string[]).includes(violation.decision)) return 'approval';
  if (TOOL_SET.has(violation.code)) return 'tool';
  if (POLICY_SET.has(violation.code)) return 'policy';
  return 'arguments';
}

export function isViolationKind(value: string | undefined): value is ViolationKind {
  return (VIOLATION_KINDS as readonly string[]).includes(value ?? '');
}

/** Every known code, grouped by the kind it is filed under when the call is refused (the code filter's groups). */
export function codesByKind(): { kind: ViolationKind; codes: string[] }[] {
  const groups = new Map<ViolationKind, string[]>(VIOLATION_KINDS.map((kind) => [kind, []]));
  for (const code of CODES) {
    const kind = APPROVAL_HOLD_CODES.includes(code) ? 'approval' : violationKind({ code, decision: 'deny' });
    groups.get(kind)?.push(code);
  }
  return VIOLATION_KINDS.map((kind) => ({ kind, codes: [...(groups.get(kind) ?? [])].sort() }));
}
