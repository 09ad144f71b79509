/**
 * A request to Toolgate that failed: an error envelope from the server (4xx/5xx), or no usable
 * answer at all (`status` 0). A refused tool call is NOT a ToolgateError: it is a normal
 * validation answer with a decision.
 */
export class ToolgateError extends Error {
  /** HTTP status, or 0 when no response arrived (network failure, timeout) or none was sent (`invalid_request`). */
  readonly status: number;
  /** The server's error code (`unauthorized`, `contract_invalid`, `unavailable`, ...), or `network_error`, `timeout`, `invalid_response`, `invalid_request`. */
  readonly code: string;
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfter: number | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    retryAfter?: number;
    details?: Record<string, unknown>;
    requestId?: string;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolgateError';
    this.status = options.status;
    this.code = options.code;
    this.retryAfter = options.retryAfter;
    this.details = options.details;
    this.requestId = options.requestId;
  }

  /** Worth retrying later: the server was unavailable or rate limited, or never answered. */
  get retryable(): boolean {
    if (this.status === 0) return this.code === 'network_error' || this.code === 'timeout';
    return this.status === 503 || this.status === 429;
  }
}
