import type { ApprovalRef, ValidationResponse } from '../wire-types.ts';

/** Why Toolgate kept a tool call from running, or its result from the model. */
export type ToolgateToolErrorCode =
  /** validate/pre refused the call (deny), or its approval was denied, expired or already used. */
  | 'refused'
  /** Toolgate holds the call for an approval nobody has decided yet. */
  | 'approval_pending'
  /** Toolgate could not be asked, so the tool did not run (fail closed). */
  | 'unreachable'
  /** The tool ran, but validate/post refused its result (or could not check it), so the model does not see it. */
  | 'result_withheld';

/**
 * What a gated tool's `execute` throws when Toolgate stops the call. The AI SDK turns a thrown
 * error into the tool's error part: the next model step reads `String(error)` (its `error-text`
 * output) and the response messages keep `JSON.stringify(error)` (`error-json`). Both are the
 * message alone, which is Toolgate's `llm_message` when the server gave one, so the model reads
 * exactly what Toolgate wrote for it and nothing of the error's class name.
 */
export class ToolgateToolError extends Error {
  readonly code: ToolgateToolErrorCode;
  readonly toolCallId: string;
  /** The Toolgate contract id the call was checked against. */
  readonly contractId: string;
  /** The validate/pre or validate/post answer that stopped the call, when there was one. */
  readonly response: ValidationResponse | undefined;
  readonly approval: ApprovalRef | undefined;

  constructor(options: {
    code: ToolgateToolErrorCode;
    message: string;
    toolCallId: string;
    contractId: string;
    response?: ValidationResponse;
    approval?: ApprovalRef;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolgateToolError';
    this.code = options.code;
    this.toolCallId = options.toolCallId;
    this.contractId = options.contractId;
    this.response = options.response;
    this.approval = options.approval;
  }

  override toString(): string {
    return this.message;
  }

  toJSON(): string {
    return this.message;
  }
}
