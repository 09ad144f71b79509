import { toJsonText } from './json.ts';
import { ToolgateError } from './toolgate-error.ts';
import type {
  ApiErrorBody,
  Approval,
  Confirmation,
  ConfirmationRequest,
  ManifestValidateRequest,
  PipelineValidateRequest,
  PipelineValidationResponse,
  PostCallRequest,
  PreCallRequest,
  SavedContractDraft,
  ValidationResponse,
  McpToolReport,
} from './wire-types.ts';

/** `globalThis.fetch` fits; tests pass a function that calls route handlers in process. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ToolgateClientOptions {
  /** Where Toolgate runs, e.g. `https://toolgate.example.com` (no `/api/v1`). */
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  /** Attempts per request, the first included. Default 4. */
  maxAttempts?: number;
  /** Backoff before the first retry; it doubles per retry, with jitter. Default 250 ms. */
  retryDelayMs?: number;
  /** The longest pause between attempts. A Retry-After above it ends the retries. Default 10 s. */
  maxRetryDelayMs?: number;
  /** Per attempt; a long poll adds its wait. Default 30 s. */
  timeoutMs?: number;
  /** How often `waitForApproval` asks when the server does not hold the request open. Default 2 s. */
  approvalPollIntervalMs?: number;
  /** Injected by tests to run without real timers. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** W3C trace context of the agent's span, sent as the `traceparent` header. */
  traceparent?: string;
}

export interface WaitForApprovalOptions extends RequestOptions {
  /** Give up after this long and return the approval still pending. Default: until it is decided or expires. */
  timeoutMs?: number;
}

export interface ToolgateClient {
  readonly baseUrl: string;
  /** Checks a proposed tool call before it runs; the answer's `decision` says whether to run it. */
  validatePre(request: PreCallRequest, options?: RequestOptions): Promise<ValidationResponse>;
  /** Checks what the tool returned (or the error it raised), in the same trace as the pre call. */
  validatePost(request: PostCallRequest, options?: RequestOptions): Promise<ValidationResponse>;
  /** For the host application, once its user confirmed one exact call. */
  createConfirmation(request: ConfirmationRequest, options?: RequestOptions): Promise<Confirmation>;
  getApproval(id: string, options?: RequestOptions & { waitSeconds?: number }): Promise<Approval>;
  /** Resolves once the approval is approved, denied or expired, or with it still pending after `timeoutMs`. */
  waitForApproval(id: string, options?: WaitForApprovalOptions): Promise<Approval>;
  validatePipeline(request: PipelineValidateRequest, options?: RequestOptions): Promise<PipelineValidationResponse>;
  /** For an MCP gateway (the stdio proxy): what its upstream lists now, answered with how each tool stands. */
  reportMcpTools(server: string, tools: readonly unknown[], options?: RequestOptions): Promise<McpToolReport>;
  validateManifest(request: ManifestValidateRequest, options?: RequestOptions): Promise<PipelineValidationResponse>;
  /** Creates or replaces a draft contract version; needs a key with the `author` (or `admin`) scope. */
  saveContractDraft(document: object, options?: RequestOptions): Promise<SavedContractDraft>;
}

/** The server holds `GET /approvals/{id}?wait=N` open for at most this long. */
export const LONG_POLL_SECONDS = 30;

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** An HTTP date as Retry-After carries it (IMF-fixdate, RFC 7231 §7.1.1.1); Date.parse alone reads `-5` and `5, 6` as dates. */
const HTTP_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Retry-After is either delta-seconds or an HTTP date; anything else is no Retry-After at all. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text);
  if (!HTTP_DATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A numeric option as given, or a RangeError naming it: NaN or Infinity made loops that never end. */
function numberOption(name: string, value: number | undefined, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max)
    throw new RangeError(`createToolgateClient: ${name} must be a number from ${range.min} to ${range.max}, not ${String(value)}.`);
  return value;
}

/** The longest timer Node and browsers keep (about 24.8 days); AbortSignal.timeout refuses more. */
const MAX_TIMER_MS = 2_147_483_647;

function isErrorEnvelope(body: unknown): body is ApiErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text === '' ? undefined : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function createToolgateClient(options: ToolgateClientOptions): ToolgateClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const maxAttempts = Math.floor(numberOption('maxAttempts', options.maxAttempts, 4, { min: 1, max: 100 }));
  const retryDelayMs = numberOption('retryDelayMs', options.retryDelayMs, 250, { min: 0, max: MAX_TIMER_MS });
  const maxRetryDelayMs = numberOption('maxRetryDelayMs', options.maxRetryDelayMs, 10_000, { min: 0, max: MAX_TIMER_MS });
  const timeoutMs = numberOption('timeoutMs', options.timeoutMs, 30_000, { min: 1, max: MAX_TIMER_MS - LONG_POLL_SECONDS * 1000 });
  const pollIntervalMs = numberOption('approvalPollIntervalMs', options.approvalPollIntervalMs, 2000, { min: 1, max: MAX_TIMER_MS });
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;

  /** One attempt: the parsed answer, or the ToolgateError it amounts to. */
  async function attempt(
    method: string,
    path: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
    extraTimeoutMs: number,
    traceparent: string | undefined,
  ): Promise<{ value: unknown } | ToolgateError> {
    const timeout = AbortSignal.timeout(timeoutMs + extraTimeoutMs);
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (traceparent) headers.traceparent = traceparent;
    let status = 0;
    let text: string;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        // A redirect is not Toolgate's answer: followed, it re-sent the call to wherever it
        // pointed and took that origin's unauthenticated reply as the decision.
        redirect: 'manual',
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      // The caller's own abort is not a failure to retry: it ends everything at once.
      if (signal?.aborted) throw signal.reason;
      const timedOut = timeout.aborted;
      return new ToolgateError({
        status: 0,
        code: timedOut ? 'timeout' : 'network_error',
        message: timedOut
          ? `${method} ${path} got no answer within ${timeoutMs + extraTimeoutMs} ms`
          : `${method} ${path} failed before an answer arrived: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    const parsed = parseJson(text);
    if (response.ok) {
      // Every answer of the API is a JSON object; `null` or an empty body read as one crashed
      // the callers that looked into it (after the tool had run, for validate/post).
      if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value))
        return { value: parsed.value };
      return new ToolgateError({
        status,
        code: 'invalid_response',
        message: `${method} ${path} answered ${status} with a body that is not a JSON object`,
      });
    }
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now());
    if (parsed.ok && isErrorEnvelope(parsed.value)) {
      const { error, request_id: requestId } = parsed.value;
      return new ToolgateError({ status, code: error.code, message: error.message, details: error.details, retryAfter, requestId });
    }
    return new ToolgateError({
      status,
      code: `http_${status}`,
      message: `${method} ${path} answered ${status} ${response.statusText}`.trim(),
      retryAfter,
    });
  }

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    opts: RequestOptions & { extraTimeoutMs?: number; retryUnanswered?: boolean } = {},
  ): Promise<T> {
    let text: string | undefined;
    try {
      text = body === undefined ? undefined : toJsonText(body);
    } catch (error) {
      throw new ToolgateError({
        status: 0,
        code: 'invalid_request',
        message: `${method} ${path}: the body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    for (let attemptNo = 1; ; attemptNo += 1) {
      const outcome = await attempt(method, path, text, opts.signal, opts.extraTimeoutMs ?? 0, opts.traceparent);
      if (!(outcome instanceof ToolgateError)) return outcome.value as T;
      // 503 means nothing was decided, so asking again is safe. A network failure is retried
      // too: validate/pre is keyed by call_id, so a repeat at worst meets a token the lost
      // answer already redeemed, which the server reports rather than allowing twice.
      if (!outcome.retryable || attemptNo >= maxAttempts) throw outcome;
      // A request that may have been recorded (no answer came back) is asked again only where a
      // repeat cannot record twice: not validate/post, whose repeat is a second post record.
      if (outcome.status === 0 && opts.retryUnanswered === false) throw outcome;
      const backoff = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (attemptNo - 1) * (0.5 + Math.random() / 2));
      // Retry-After is the least the server asks to wait (0 for a date past): never less than the backoff.
      const delay = outcome.retryAfter !== undefined ? Math.max(outcome.retryAfter * 1000, backoff) : backoff;
      // Honour the server: if it wants a longer pause than we are willing to hold, give up now.
      if (delay > maxRetryDelayMs) throw outcome;
      await sleep(delay, opts.signal);
    }
  }

  const id = (value: string) => encodeURIComponent(value);

  const client: ToolgateClient = {
    baseUrl,
    validatePre: (body, opts) => request('POST', '/api/v1/validate/pre', body, opts),
    validatePost: (body, opts) => request('POST', '/api/v1/validate/post', body, { ...opts, retryUnanswered: false }),
    createConfirmation: (body, opts) => request('POST', '/api/v1/confirmations', body, opts),
    getApproval: (approvalId, opts = {}) => {
      const wait = opts.waitSeconds !== undefined && opts.waitSeconds > 0 ? Math.min(LONG_POLL_SECONDS, Math.floor(opts.waitSeconds)) : 0;
      const query = wait > 0 ? `?wait=${wait}` : '';
      return request('GET', `/api/v1/approvals/${id(approvalId)}${query}`, undefined, { signal: opts.signal, extraTimeoutMs: wait * 1000 });
    },
    waitForApproval: async (approvalId, opts = {}) => {
      // NaN polled in a tight loop for ever (no deadline reached, no long poll, no pause).
      if (opts.timeoutMs !== undefined && (typeof opts.timeoutMs !== 'number' || Number.isNaN(opts.timeoutMs)))
        throw new RangeError(`waitForApproval: timeoutMs must be a number of milliseconds, not ${String(opts.timeoutMs)}.`);
      const deadline = opts.timeoutMs === undefined ? Infinity : now() + opts.timeoutMs;
      for (;;) {
        const waitSeconds = Math.max(0, Math.min(LONG_POLL_SECONDS, Math.floor((deadline - now()) / 1000)));
        const started = now();
        const approval = await client.getApproval(approvalId, { waitSeconds, signal: opts.signal });
        if (approval.status !== 'pending') return approval;
        const left = deadline - now();
        if (left <= 0) return approval;
        // A server that answers a long poll at once (or one without long polling) must not
        // be asked in a tight loop.
        const pause = Math.min(pollIntervalMs - (now() - started), left);
        if (pause > 0) await sleep(pause, opts.signal);
      }
    },
    validatePipeline: (body, opts) => request('POST', '/api/v1/pipeline/validate', body, opts),
    reportMcpTools: (server, tools, opts) => request('POST', `/api/v1/mcp-servers/${id(server)}/tools`, { tools }, opts),
    validateManifest: (body, opts) => request('POST', '/api/v1/manifests/validate', body, opts),
    saveContractDraft: (document, opts) => request('POST', '/api/v1/contracts', document, opts),
  };
  return client;
}
