import { ERROR_CODES, type ValidationIssue } from './error-codes.ts';

/**
 * What the calling model reads after a refused call. It is one paragraph of plain text because
 * models act on prose more reliably than on nested JSON, and it is bounded so a call with many
 * problems cannot flood the model's context. It lives in the SDK because a tool defined with
 * defineTool tells the model the same when its own check refuses the call.
 */

export const MAX_LLM_MESSAGE_CHARS = 1500;
const MAX_LISTED = 8;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function describeIssue(issue: ValidationIssue): string {
  const where = issue.path === '$' ? '' : ` at ${issue.path}`;
  // An approver's comment on a denial is written for the model to read: keep more of it.
  const room = issue.code === 'AXAG_APPROVAL_DENIED' ? 600 : 200;
  return `${issue.code}${where}: ${bare(clip(issue.message, room))}. Fix: ${bare(clip(issue.details.suggestion, 200))}`;
}

/** Without its closing full stop, so joining sentences never doubles one. */
function bare(sentence: string): string {
  return sentence.replace(/[.\s]+$/, '');
}

function nextStep(tool: string, errors: ValidationIssue[], phase: 'pre' | 'post'): string {
  const codes = new Set(errors.map((issue) => issue.code));
  if (codes.has('AXAG_NUMBER_UNREPRESENTABLE')) {
    return phase === 'post'
      ? `The ${tool} call ran, but what it returned was refused: a number in it cannot be carried exactly. Do not use that result or call ${tool} again for it; have the tool report such numbers as strings.`
      : `Call ${tool} again with each number at the paths above sent as a string.`;
  }
  if (phase === 'post') return nextStepAfterRun(tool, codes);
  if (codes.has('AXAG_APPROVAL_DENIED')) return 'Do not retry; tell the user the call was denied.';
  if (codes.has('AXAG_TENANT_BOUNDARY') || codes.has('AXAG_SCOPE_VIOLATION') || codes.has('AXAG_ROLE_INSUFFICIENT')) {
    return "Do not retry with other identities or tenants; only act within the caller's own scope.";
  }
  if (codes.has('AXAG_CONFIRMATION_MISSING') || codes.has('AXAG_CONFIRMATION_INVALID')) {
    return `Ask the user to confirm, then call ${tool} again with the confirmation token.`;
  }
  const limited = errors.find((issue) => issue.code === 'AXAG_RATE_LIMITED' || issue.code === 'AXAG_BUDGET_EXCEEDED');
  if (limited) {
    const retry = limited.details.retry_after_seconds;
    const wait = typeof retry === 'number' ? `for ${retry} seconds` : 'until the limit frees up';
    return limited.code === 'AXAG_BUDGET_EXCEEDED'
      ? `Do not call ${tool} again ${wait} unless for no more than what remains of the budget; tell the user the budget was reached.`
      : `Do not call ${tool} again ${wait}; tell the user the limit was reached.`;
  }
  if (codes.has('AXAG_POLICY_DENIED') || codes.has('AXAG_TOOL_NOT_ALLOWED') || codes.has('AXAG_SIDE_EFFECT_CEILING')) {
    return 'Do not retry this call; a policy forbids it. Tell the user why, or choose an allowed action.';
  }
  if (codes.has('AXAG_ESCALATION_REQUIRED')) return `Wait for the escalated approval, then call ${tool} again with the approval token.`;
  if (codes.has('AXAG_APPROVAL_MISSING') || codes.has('AXAG_APPROVAL_INVALID')) {
    return `Wait for approval, then call ${tool} again with the approval token.`;
  }
  return `Correct the arguments and call ${tool} again; do not repeat the same call unchanged.`;
}

/**
 * After validate/post the tool has already run: the arguments are not what to correct, and
 * running it again may repeat its side effects. What is refused is its result.
 */
function nextStepAfterRun(tool: string, codes: ReadonlySet<string>): string {
  if (codes.has('AXAG_UNKNOWN_TOOL') || codes.has('AXAG_VERSION_NOT_FOUND')) {
    return `The result could not be checked because ${tool} has no such published contract. Do not rely on it; tell the user it is unverified.`;
  }
  if (codes.has('AXAG_SIDE_EFFECT_MISSING')) {
    return `Do not call ${tool} again to make up for it: it already ran. Tell the user the expected effect was not confirmed.`;
  }
  return `Do not use this result or present it as correct, and do not call ${tool} again just to get another one: it already ran. Tell the user the result failed Toolgate's checks.`;
}

export type LlmMessageOptions = {
  tool: string;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  /** `post` for validate/post: what is refused is the tool's result, not the proposed call. */
  phase?: 'pre' | 'post';
};

export function llmMessage({ tool, errors, warnings, phase = 'pre' }: LlmMessageOptions): string {
  const parts: string[] = [];
  if (errors.length === 0) {
    parts.push(phase === 'post' ? `The result of ${tool} passed validation.` : `The call to ${tool} passed validation.`);
  } else if (phase === 'post') {
    parts.push(`The result of ${tool} was refused with ${errors.length} problem${errors.length === 1 ? '' : 's'}.`);
  } else {
    parts.push(`The call to ${tool} was refused with ${errors.length} problem${errors.length === 1 ? '' : 's'}.`);
    errors.slice(0, MAX_LISTED).forEach((issue, index) => parts.push(`(${index + 1}) ${describeIssue(issue)}.`));
    if (errors.length > MAX_LISTED) parts.push(`…and ${errors.length - MAX_LISTED} more.`);
  }
  if (warnings.length > 0) {
    parts.push(
      `Warnings: ${warnings
        .slice(0, 3)
        .map((w) => `${w.code}: ${clip(w.message, 150)}`)
        .join('; ')}.`,
    );
  }
  if (errors.length > 0) parts.push(nextStep(tool, errors, phase));
  const text = parts.join(' ');
  if (text.length <= MAX_LLM_MESSAGE_CHARS) return text;
  // Keep the instruction at the end: it is the part the model must not lose.
  const tail = errors.length > 0 ? ` ${nextStep(tool, errors, phase)}` : '';
  return `${text.slice(0, MAX_LLM_MESSAGE_CHARS - tail.length - 1)}…${tail}`;
}

export type ValidationErrorEnvelope = {
  error: {
    code: 'AXAG_VALIDATION_ERROR';
    type: string;
    message: string;
    details: {
      intent: string;
      code: string;
      suggestion: string;
      path: string;
      failed_precondition?: string;
      failed_postcondition?: string;
      [key: string]: unknown;
    };
  };
};

/**
 * The AXAG spec's error envelope, built from the first (most important) error. Its `type` names
 * that failure as the spec's example does (`precondition_failed`, the code's `envelope_type`);
 * the entries of `errors[]` keep their table types (`precondition_error`). A failed pre- or
 * postcondition is named as the example names it: `failed_precondition` /
 * `failed_postcondition` carry the condition's message, `condition_id` its id.
 */
export function primaryErrorEnvelope(tool: string, errors: ValidationIssue[]): ValidationErrorEnvelope | null {
  const first = errors[0];
  if (!first) return null;
  const details: ValidationErrorEnvelope['error']['details'] = {
    intent: tool,
    code: first.code,
    suggestion: first.details.suggestion || ERROR_CODES[first.code].suggestion,
    path: first.path,
  };
  for (const key of ['failed_precondition', 'failed_postcondition', 'condition_id'] as const) {
    if (typeof first.details[key] === 'string') details[key] = first.details[key];
  }
  if (first.details.constraint !== undefined) details.constraint = first.details.constraint;
  return { error: { code: 'AXAG_VALIDATION_ERROR', type: ERROR_CODES[first.code].envelope_type, message: first.message, details } };
}
