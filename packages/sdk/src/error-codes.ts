/**
 * Every runtime validation code Toolgate can report, in one table. The first ten come verbatim
 * from the AXAG runtime-validation spec; the rest extend it in the same style. The table in
 * docs/runtime-api.md is generated from this object, so a code documented here is a code that exists.
 * It lives in the SDK because the SDK reports the same issues locally (zod-issues.ts); the
 * server reads it through lib/validation/error-codes.ts.
 *
 * Two types per code, as the spec has them: `type` is its table's class of error
 * (`precondition_error`), which every entry of `errors[]` carries; `envelope_type` names the
 * specific failure in the style of the spec's example envelope (`precondition_failed`), and is
 * the `type` of the `AXAG_VALIDATION_ERROR` envelope when this code is the primary error.
 */
export const ERROR_CODES = {
  AXAG_MISSING_PARAM: {
    type: 'parameter_error',
    envelope_type: 'missing_parameter',
    severity: 'error',
    description: 'Required parameter not provided (absent, or present but null).',
    suggestion: 'Provide the required parameter with a non-null value.',
  },
  AXAG_INVALID_TYPE: {
    type: 'parameter_error',
    envelope_type: 'invalid_type',
    severity: 'error',
    description: 'Parameter value has wrong type.',
    suggestion: 'Send the value with the type the contract declares.',
  },
  AXAG_OUT_OF_RANGE: {
    type: 'constraint_error',
    envelope_type: 'out_of_range',
    severity: 'error',
    description: 'Numeric value outside min/max.',
    suggestion: 'Choose a value inside the declared bounds.',
  },
  AXAG_INVALID_ENUM: {
    type: 'constraint_error',
    envelope_type: 'invalid_enum_value',
    severity: 'error',
    description: 'Value not in allowed enum set.',
    suggestion: 'Use one of the allowed values listed in details.constraint.allowed.',
  },
  AXAG_PRECONDITION_FAILED: {
    type: 'precondition_error',
    envelope_type: 'precondition_failed',
    severity: 'error',
    description: 'Precondition check failed.',
    suggestion: 'Bring the system into the state the precondition requires, then retry.',
  },
  AXAG_CONFIRMATION_MISSING: {
    type: 'safety_error',
    envelope_type: 'confirmation_missing',
    severity: 'error',
    description: 'Confirmation required but not provided.',
    suggestion: 'Ask the user to confirm this exact call, then retry with the confirmation token.',
  },
  AXAG_APPROVAL_MISSING: {
    type: 'safety_error',
    envelope_type: 'approval_missing',
    severity: 'error',
    description: 'Approval required but not provided.',
    suggestion: 'Request approval from an authorized approver, then retry with the approval token.',
  },
  AXAG_SCOPE_VIOLATION: {
    type: 'security_error',
    envelope_type: 'scope_violated',
    severity: 'error',
    description: 'Operation outside declared scope.',
    suggestion: 'Only act on resources that belong to the calling user.',
  },
  AXAG_TENANT_BOUNDARY: {
    type: 'security_error',
    envelope_type: 'tenant_boundary_crossed',
    severity: 'error',
    description: 'Cross-tenant access attempt.',
    suggestion: "Use the caller's own tenant id; cross-tenant calls are never allowed.",
  },
  AXAG_ROLE_INSUFFICIENT: {
    type: 'authorization_error',
    envelope_type: 'role_insufficient',
    severity: 'error',
    description: 'Caller lacks required role.',
    suggestion: 'Call this tool as a principal holding one of the required roles.',
  },
  AXAG_UNKNOWN_TOOL: {
    type: 'request_error',
    envelope_type: 'unknown_tool',
    severity: 'error',
    description: 'No contract, or no published version, exists for the named tool.',
    suggestion: 'Check the tool id against the list of published contracts.',
  },
  AXAG_VERSION_NOT_FOUND: {
    type: 'request_error',
    envelope_type: 'version_not_found',
    severity: 'error',
    description: 'The requested contract version does not exist.',
    suggestion: 'Omit the version to use the current one, or pick a published version.',
  },
  AXAG_UNKNOWN_PARAM: {
    type: 'parameter_error',
    envelope_type: 'unknown_parameter',
    severity: 'error',
    description: 'A parameter the contract does not declare was sent.',
    suggestion: 'Remove the parameter; only declared parameters are accepted.',
  },
  AXAG_INVALID_FORMAT: {
    type: 'constraint_error',
    envelope_type: 'invalid_format',
    severity: 'error',
    description: 'Value does not match its declared format (email, date, URI, ...).',
    suggestion: 'Send the value in the declared format.',
  },
  AXAG_PATTERN_MISMATCH: {
    type: 'constraint_error',
    envelope_type: 'pattern_mismatch',
    severity: 'error',
    description: 'String does not match the declared pattern.',
    suggestion: 'Send a string matching the pattern in details.constraint.pattern.',
  },
  AXAG_INVALID_LENGTH: {
    type: 'constraint_error',
    envelope_type: 'invalid_length',
    severity: 'error',
    description: 'String length, item count or property count outside the declared bounds.',
    suggestion: 'Shorten or extend the value to fit the declared length bounds.',
  },
  AXAG_CONSTRAINT_VIOLATION: {
    type: 'constraint_error',
    envelope_type: 'constraint_violated',
    severity: 'error',
    description: 'Value violates another schema constraint (const, multipleOf, uniqueItems, oneOf/anyOf/not, ...).',
    suggestion: 'Change the value to satisfy the constraint in details.constraint.',
  },
  AXAG_CONFIRMATION_INVALID: {
    type: 'safety_error',
    envelope_type: 'confirmation_invalid',
    severity: 'error',
    description: 'Confirmation token is malformed, expired, already used, or bound to another call.',
    suggestion: 'Obtain a fresh confirmation for this exact call and retry with its token.',
  },
  AXAG_APPROVAL_INVALID: {
    type: 'safety_error',
    envelope_type: 'approval_invalid',
    severity: 'error',
    description: 'Approval token is malformed, expired, already used, or bound to another call.',
    suggestion: 'Request a fresh approval for this exact call and retry with its token.',
  },
  AXAG_APPROVAL_DENIED: {
    type: 'safety_error',
    envelope_type: 'approval_denied',
    severity: 'error',
    description: 'An approver denied the call.',
    suggestion: 'Do not retry this call; report the denial to the user.',
  },
  AXAG_OUTPUT_MISMATCH: {
    type: 'output_error',
    envelope_type: 'output_mismatch',
    severity: 'error',
    description: "The tool's result does not match the declared output schema.",
    suggestion: 'Fix the tool implementation or the contract so the result matches the output schema.',
  },
  AXAG_POSTCONDITION_FAILED: {
    type: 'postcondition_error',
    envelope_type: 'postcondition_failed',
    severity: 'error',
    description: 'Postcondition check failed after execution.',
    suggestion: 'Investigate the tool result; the declared postcondition did not hold.',
  },
  AXAG_SIDE_EFFECT_MISSING: {
    type: 'side_effect_error',
    envelope_type: 'side_effect_missing',
    severity: 'error',
    description: 'A side effect declared as required was not reported.',
    suggestion: 'Verify the side effect happened and report it, or mark it as not required.',
  },
  AXAG_SIDE_EFFECT_UNDECLARED: {
    type: 'side_effect_error',
    envelope_type: 'side_effect_undeclared',
    severity: 'warning',
    description: 'A reported side effect is not declared in the contract.',
    suggestion: 'Declare the side effect in the contract, or stop the tool from causing it.',
  },
  AXAG_ERROR_SCHEMA_MISMATCH: {
    type: 'error_semantics_error',
    envelope_type: 'error_schema_mismatch',
    severity: 'error',
    description: 'An error response does not follow the declared error schema.',
    suggestion: 'Return errors shaped as the contract declares.',
  },
  AXAG_DUPLICATE_CALL: {
    type: 'idempotency_warning',
    envelope_type: 'duplicate_call',
    severity: 'warning',
    description: 'A non-idempotent call looks like a duplicate of a recent one.',
    suggestion: 'Check whether the earlier call already succeeded before repeating it.',
  },
  AXAG_CONTRACT_DEPRECATED: {
    type: 'deprecation_warning',
    envelope_type: 'contract_deprecated',
    severity: 'warning',
    description: 'The tool contract is deprecated.',
    suggestion: 'Move to the replacement tool named in details.replacement, if any.',
  },
  AXAG_TOOL_DEFINITION_CHANGED: {
    type: 'security_error',
    envelope_type: 'tool_definition_changed',
    severity: 'error',
    description:
      "The upstream MCP server changed this tool's definition (description, schemas or annotations) since it was pinned; calls are refused until an author reviews and accepts the change.",
    suggestion: 'Do not call this tool now; tell the user it is waiting for a review of its changed definition, or use another tool.',
  },
  AXAG_TOOL_NOT_ALLOWED: {
    type: 'policy_error',
    envelope_type: 'tool_not_allowed',
    severity: 'error',
    description: "A capability policy does not allow this tool (it matches none of the policy's tool patterns).",
    suggestion: 'Do not call this tool; use one the policy allows, or ask an administrator to allow it.',
  },
  AXAG_SIDE_EFFECT_CEILING: {
    type: 'policy_error',
    envelope_type: 'side_effect_ceiling_exceeded',
    severity: 'error',
    description: "The tool's side-effect level is above a capability policy's ceiling.",
    suggestion: 'Use a tool with a lower side-effect level, or ask an administrator to raise the ceiling.',
  },
  AXAG_ARGUMENT_NOT_ALLOWED: {
    type: 'policy_error',
    envelope_type: 'argument_not_allowed',
    severity: 'error',
    description: "An argument value is outside a policy's argument constraint (allowed values or pattern).",
    suggestion: 'Use one of the values in details.constraint.allowed_values, or a value matching details.constraint.pattern.',
  },
  AXAG_POLICY_DENIED: {
    type: 'policy_error',
    envelope_type: 'policy_denied',
    severity: 'error',
    description: 'A policy rule denied the call; details name the policy, version and rule, with its reason.',
    suggestion: 'Do not repeat the call; the reason in the message says what the policy forbids.',
  },
  AXAG_POLICY_EVALUATION_FAILED: {
    type: 'policy_error',
    envelope_type: 'policy_evaluation_failed',
    severity: 'error',
    description: "A policy rule's condition could not be evaluated for this call, so the call is refused (fail closed).",
    suggestion: 'Check that the arguments and context carry the fields the rule reads; report the rule to its author if they do.',
  },
  AXAG_RATE_LIMITED: {
    type: 'policy_error',
    envelope_type: 'rate_limited',
    severity: 'error',
    description:
      'A policy limit on the number of calls in a window is used up; details name the limit, its window, what remains and `retry_after_seconds`.',
    suggestion: 'Do not retry before retry_after_seconds; tell the user the limit was reached.',
  },
  AXAG_BUDGET_EXCEEDED: {
    type: 'policy_error',
    envelope_type: 'budget_exceeded',
    severity: 'error',
    description:
      'The call would take a policy budget (the sum of one argument in a window) past its maximum; details name the limit, what remains and `retry_after_seconds`.',
    suggestion: 'Ask for no more than the remaining amount, or wait retry_after_seconds; tell the user the budget was reached.',
  },
  AXAG_POLICY_TRANSFORM_INVALID: {
    type: 'policy_error',
    envelope_type: 'policy_transform_invalid',
    severity: 'error',
    description: "A policy's transform produced arguments that no longer satisfy the contract, so the call is refused.",
    suggestion: 'Report the policy rule in details to its author; the call cannot run as transformed.',
  },
  AXAG_NUMBER_UNREPRESENTABLE: {
    type: 'parameter_error',
    envelope_type: 'number_unrepresentable',
    severity: 'error',
    description:
      'A number in the arguments, context, result or error cannot be held exactly by a double (beyond ±1.8e308, an integer beyond ±(2^53−1), or non-zero but reading as 0); nothing else was checked. The path is rooted at the request body ($.arguments.id).',
    suggestion: 'Send the value as a string (e.g. "9007199254740993"), and declare it as a string in the contract.',
  },
  AXAG_ESCALATION_REQUIRED: {
    type: 'safety_error',
    envelope_type: 'escalation_required',
    severity: 'error',
    description: 'A policy escalated the call to a higher role; it needs their approval.',
    suggestion: 'Wait for the escalated approval (poll details.approval), then call again with the approval token.',
  },
} as const satisfies Record<
  string,
  { type: string; envelope_type: string; severity: 'error' | 'warning'; description: string; suggestion: string }
>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorType = (typeof ERROR_CODES)[ErrorCode]['type'];

export type IssueDetails = {
  /** The tool id the call was addressed to. */
  intent: string;
  suggestion: string;
  /** The failed constraint, e.g. `{keyword: 'maximum', limit: 10}`. */
  constraint?: Record<string, unknown>;
  failed_precondition?: string;
  [key: string]: unknown;
};

/**
 * One runtime finding. A union over `code` so `type` always agrees with the table and a switch
 * on `code` is checked for exhaustiveness.
 */
export type ValidationIssue = {
  [C in ErrorCode]: {
    code: C;
    type: (typeof ERROR_CODES)[C]['type'];
    message: string;
    /** JSONPath into the checked value: `$.items[0].sku`, or `$` for the whole value. */
    path: string;
    details: IssueDetails;
  };
}[ErrorCode];

export type MakeIssueOptions = {
  intent: string;
  message: string;
  path?: string;
  suggestion?: string;
  constraint?: Record<string, unknown>;
  [key: string]: unknown;
};

export function makeIssue(code: ErrorCode, options: MakeIssueOptions): ValidationIssue {
  const { intent, message, path, suggestion, constraint, ...extra } = options;
  const entry = ERROR_CODES[code];
  const details: IssueDetails = {
    ...extra,
    intent,
    suggestion: suggestion ?? entry.suggestion,
  };
  if (constraint !== undefined) details.constraint = constraint;
  return { code, type: entry.type, message, path: path ?? '$', details } as ValidationIssue;
}

export function isWarningCode(code: ErrorCode): boolean {
  return ERROR_CODES[code].severity === 'warning';
}
