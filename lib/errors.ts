/**
 * The domain's one error type and its codes. Services throw `AppError`; the HTTP layer
 * (lib/api/define-route.ts) turns it into the envelope
 *   {"error": {"code": "...", "message": "...", "details": {...}}, "request_id": "..."}
 * with the status named here, and server actions show its message. It lives here, not in
 * lib/api, so that no domain module depends on the HTTP layer. A tool call that validation
 * refuses is not an error: it is a 200 with a decision (lib/validation).
 */
export const APP_ERROR_CODES = {
  bad_request: {
    status: 400,
    description:
      'The request is malformed: invalid JSON, wrong shape, or a bad parameter. A body that is not valid UTF-8 (without a charset) says where: details.reason invalid_utf8, details.offset.',
  },
  json_too_deep: { status: 400, description: 'The JSON body nests deeper than TOOLGATE_MAX_JSON_DEPTH.' },
  number_unrepresentable: {
    status: 400,
    description:
      'A number in the body cannot be held exactly by a double: beyond ±1.8e308 (e.g. 1e309), an integer beyond ±(2^53−1), or non-zero but reading as 0. details.path names the first, details.paths up to 20; send such values as strings (docs/numbers.md). validate/pre and validate/post answer one in arguments, context, result or error with a deny (AXAG_NUMBER_UNREPRESENTABLE) instead.',
  },
  unauthorized: { status: 401, description: 'No valid API key or session was presented.' },
  forbidden: {
    status: 403,
    description:
      'The key or user lacks the scope or role this endpoint needs, or a signed-in request names a tenant (the x-toolgate-tenant header) its person is not a member of (any more): details.reason not_a_member; reload the page.',
  },
  cross_site_request: {
    status: 403,
    description:
      'A signed-in (session cookie) request that changes something came from another origin: its Origin header is not this instance\'s own (TOOLGATE_PUBLIC_URL, else the request\'s Host), is "null", or is missing without Sec-Fetch-Site: same-origin. Nothing was changed. API-key requests are not affected (docs/security.md).',
  },
  self_approval: {
    status: 403,
    description:
      'The approver is the requester of the call: the same API key, the end user it acts for (context.user_id), or the person who created its key. Nobody approves their own call.',
  },
  not_found: { status: 404, description: "No such resource in the caller's tenant." },
  method_not_allowed: { status: 405, description: 'The endpoint does not support this HTTP method.' },
  conflict: {
    status: 409,
    description:
      'The request conflicts with current state (e.g. a published version already exists), or another request changed or made the same thing at the same moment: read again, then retry.',
  },
  last_admin: {
    status: 409,
    description:
      'The change would leave the tenant without an admin: its last admin cannot be demoted or removed. Make someone else admin first.',
  },
  invitation_invalid: {
    status: 404,
    description: 'The invitation link cannot be used; details.reason is unknown, used, expired or revoked. Ask an admin for a new one.',
  },
  password_reset_invalid: {
    status: 404,
    description:
      'The password reset link cannot be used; details.reason is unknown (never issued, or replaced by a newer link), used or expired. Ask the operator for a new one.',
  },
  approval_expired: {
    status: 409,
    description: 'The approval expired before it was decided; it can no longer be decided, and its outcome is denied.',
  },
  lint_errors: {
    status: 409,
    description:
      'Publishing was refused: the document has error diagnostics; details.diagnostics lists them (code, severity, message, path, range).',
  },
  verification_too_large: {
    status: 409,
    description:
      'GET /api/v1/evidence/verify would read more records than one request reads (TOOLGATE_VERIFY_MAX_RECORDS, details.records and details.max); start a verification run (POST /api/v1/evidence/verify/runs), whose checkpoint lets the next verify read only what is newer.',
  },
  client_closed: {
    status: 499,
    description:
      'The client went away before its answer (never received; in the log only). A verify stops reading there and records no checkpoint.',
  },
  request_timeout: { status: 408, description: 'The request did not arrive in time (headers or body stalled).' },
  payload_too_large: { status: 413, description: 'The body exceeds TOOLGATE_MAX_BODY_BYTES (default 1 MB).' },
  unsupported_media_type: {
    status: 415,
    description:
      'The body must be application/json, sent uncompressed (a Content-Encoding other than identity is refused, with Accept-Encoding: identity), in UTF-8 or a charset named in Content-Type that Toolgate can decode (details.charset otherwise).',
  },
  headers_too_large: { status: 431, description: 'The request line and headers exceed 16 kB (a URL that long, or too many cookies).' },
  contract_invalid: { status: 422, description: 'The contract document does not compile; details.problems lists why.' },
  policy_invalid: { status: 422, description: 'The draft policy does not compile; details.problems lists why (path, message).' },
  arguments_invalid: { status: 422, description: 'Edited arguments do not pass the contract; details.errors lists the AXAG issues.' },
  too_many_requests: {
    status: 429,
    description: "This caller asked too often (a password reset request: 5 a minute per address); wait the Retry-After header's seconds.",
  },
  unavailable: {
    status: 503,
    description: 'Toolgate cannot record evidence right now (e.g. the database is down). Retry later; nothing was allowed.',
  },
  internal: { status: 500, description: 'An unexpected failure. Never returned for anything a client can send.' },
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: AppErrorCode, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return APP_ERROR_CODES[this.code].status;
  }
}

/** Longest id an answer repeats: a path's id can be as long as the URL (16 kB), and is echoed twice. */
const ECHOED_ID_MAX = 200;

export class NotFoundError extends AppError {
  constructor(resource: string, id: string) {
    const echoed = id.length > ECHOED_ID_MAX ? `${id.slice(0, ECHOED_ID_MAX)}…` : id;
    super('not_found', `${resource} "${echoed}" was not found`, { resource, id: echoed });
  }
}

export function appErrorsMarkdownTable(): string {
  const rows = Object.entries(APP_ERROR_CODES).map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`);
  return ['| code | HTTP status | meaning |', '|---|---|---|', ...rows].join('\n');
}
