import { describe, expect, it } from 'vitest';
import { createToolgateClient, parseRetryAfter, type FetchLike, type ToolgateClientOptions } from './create-toolgate-client.ts';
import { ToolgateError } from './toolgate-error.ts';
import type { Approval } from './wire-types.ts';

type Answer = Response | Error | (() => Response | Promise<Response>);

/** A fetch that answers from a script and records every request. */
function fakeFetch(answers: Answer[]) {
  const requests: { url: string; method: string; headers: Record<string, string>; body: unknown }[] = [];
  const fetch: FetchLike = async (url, init) => {
    requests.push({
      url,
      method: init.method ?? 'GET',
      headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>)),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no scripted answer left');
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer() : answer;
  };
  return { fetch, requests };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const envelope = (code: string, message: string, status: number, headers: Record<string, string> = {}, details?: Record<string, unknown>) =>
  json({ error: { code, message, ...(details ? { details } : {}) }, request_id: 'req-1' }, status, headers);

function client(answers: Answer[], options: Partial<ToolgateClientOptions> = {}) {
  const { fetch, requests } = fakeFetch(answers);
  const sleeps: number[] = [];
  let clock = 0;
  const tg = createToolgateClient({
    baseUrl: 'https://tg.example.com/',
    apiKey: 'tg_test',
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    ...options,
  });
  return { tg, requests, sleeps, advance: (ms: number) => (clock += ms) };
}

const validation = {
  valid: true,
  decision: 'allow',
  errors: [],
  warnings: [],
  trace_id: 'a'.repeat(32),
  call_id: 'c1',
  evidence_id: 'ev1',
  tool: 'orders.lookup',
  version: '1.0.0',
  contract_hash: 'h',
};

describe('requests', () => {
  it('sends the key, JSON and the right method and path for every endpoint', async () => {
    const { tg, requests } = client([
      json(validation),
      json(validation),
      json({ id: 'cf1' }, 201),
      json({ id: 'apr 1' }),
      json({ valid: true }),
      json({ valid: true }),
      json({ tool: 'a.b' }, 201),
    ]);
    await tg.validatePre({ tool: 'orders.lookup', call_id: 'c1', arguments: { order_id: 'o1' } });
    await tg.validatePost({ tool: 'orders.lookup', call_id: 'c1', arguments: {}, result: { ok: true } });
    await tg.createConfirmation({ tool: 'cart.begin_checkout', arguments: { items: [] } });
    await tg.getApproval('apr 1');
    await tg.validatePipeline({ entry: 'pre_step', step: 'Plan', context: { CorrelationId: 'x' } });
    await tg.validateManifest({ manifest: { ToolCalls: [] }, call_id: 'm1' });
    await tg.saveContractDraft({ id: 'a.b' });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://tg.example.com/api/v1/validate/pre',
      'POST https://tg.example.com/api/v1/validate/post',
      'POST https://tg.example.com/api/v1/confirmations',
      'GET https://tg.example.com/api/v1/approvals/apr%201',
      'POST https://tg.example.com/api/v1/pipeline/validate',
      'POST https://tg.example.com/api/v1/manifests/validate',
      'POST https://tg.example.com/api/v1/contracts',
    ]);
    expect(requests[0]?.headers).toMatchObject({ authorization: 'Bearer tg_test', 'content-type': 'application/json' });
    expect(requests[3]?.headers['content-type']).toBeUndefined();
    expect(requests[4]?.body).toEqual({ entry: 'pre_step', step: 'Plan', context: { CorrelationId: 'x' } });
    expect(requests[5]?.body).toEqual({ manifest: { ToolCalls: [] }, call_id: 'm1' });
  });

  it('returns a refused call as a normal answer, not an error', async () => {
    const refused = { ...validation, valid: false, decision: 'deny', llm_message: 'The call to orders.lookup was refused.' };
    const { tg } = client([json(refused)]);
    await expect(tg.validatePre({ tool: 'orders.lookup', call_id: 'c1', arguments: {} })).resolves.toEqual(refused);
  });
});

describe('failures', () => {
  it('turns an error envelope into a ToolgateError and does not retry a 4xx', async () => {
    const { tg, requests } = client([
      envelope('contract_invalid', 'The contract document is invalid: id: Invalid', 422, {}, { problems: [{ path: 'id' }] }),
    ]);
    const error = await tg.saveContractDraft({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolgateError);
    expect(error).toMatchObject({
      status: 422,
      code: 'contract_invalid',
      message: 'The contract document is invalid: id: Invalid',
      requestId: 'req-1',
      details: { problems: [{ path: 'id' }] },
      retryable: false,
    });
    expect(requests).toHaveLength(1);
  });

  it('retries a 503 after the Retry-After the server asked for', async () => {
    const { tg, requests, sleeps } = client([envelope('unavailable', 'database down', 503, { 'retry-after': '2' }), json(validation)]);
    await expect(tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} })).resolves.toEqual(validation);
    expect(requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('gives up after maxAttempts and reports the last 503 with its Retry-After', async () => {
    const down = () => envelope('unavailable', 'database down', 503, { 'retry-after': '1' });
    const { tg, requests, sleeps } = client([down, down, down], { maxAttempts: 3 });
    await expect(tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} })).rejects.toMatchObject({
      status: 503,
      code: 'unavailable',
      retryAfter: 1,
    });
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('does not wait longer than maxRetryDelayMs: a long Retry-After ends the retries', async () => {
    const { tg, requests } = client([envelope('unavailable', 'maintenance', 503, { 'retry-after': '600' })], { maxRetryDelayMs: 5000 });
    await expect(tg.getApproval('a')).rejects.toMatchObject({ status: 503, retryAfter: 600 });
    expect(requests).toHaveLength(1);
  });

  it('retries network failures with growing backoff, then throws network_error', async () => {
    const { tg, requests, sleeps } = client(
      [new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')],
      { retryDelayMs: 100 },
    );
    const error = await tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'network_error', retryable: true });
    expect((error as Error).message).toContain('fetch failed');
    expect(requests).toHaveLength(4);
    // Exponential with jitter: attempt n waits between half and all of 100·2^(n-1) ms.
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('recovers when the network comes back', async () => {
    const { tg } = client([new TypeError('ECONNRESET'), json(validation)]);
    await expect(tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} })).resolves.toEqual(validation);
  });

  it('does not retry when the caller aborts', async () => {
    const controller = new AbortController();
    const { tg, requests } = client([
      () => {
        controller.abort(new Error('user gave up'));
        throw new DOMException('aborted', 'AbortError');
      },
    ]);
    await expect(tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} }, { signal: controller.signal })).rejects.toThrow(
      'user gave up',
    );
    expect(requests).toHaveLength(1);
  });

  it('reports a per-attempt timeout as a retryable timeout', async () => {
    const hang: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const tg = createToolgateClient({
      baseUrl: 'https://tg.example.com',
      apiKey: 'k',
      fetch: hang,
      timeoutMs: 20,
      maxAttempts: 2,
      sleep: async () => undefined,
    });
    await expect(tg.validatePre({ tool: 't.x', call_id: 'c', arguments: {} })).rejects.toMatchObject({
      status: 0,
      code: 'timeout',
      retryable: true,
    });
  });

  it('names non-JSON answers instead of failing to parse them', async () => {
    const { tg } = client([
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      new Response('not json', { status: 200 }),
    ]);
    await expect(tg.getApproval('a')).rejects.toMatchObject({ status: 502, code: 'http_502' });
    await expect(tg.getApproval('a')).rejects.toMatchObject({ status: 200, code: 'invalid_response' });
  });

  it('refuses a body that cannot be JSON before sending anything', async () => {
    const { tg, requests } = client([]);
    await expect(tg.validatePost({ tool: 't.x', call_id: 'c', arguments: {}, result: 10n })).rejects.toMatchObject({
      code: 'invalid_request',
      retryable: false,
    });
    expect(requests).toHaveLength(0);
  });

  it('parses both forms of Retry-After', () => {
    expect(parseRetryAfter('3', 0)).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    // Date.parse alone read these as dates in the past: retries went out with no pause.
    for (const odd of ['-5', '1.5', '5, 6', 'Tuesday', '1e3'])
      expect(parseRetryAfter(odd, Date.parse('2026-12-06T00:00:00Z')), odd).toBeUndefined();
  });

  it('never waits less than its backoff, whatever Retry-After says', async () => {
    const { tg, sleeps } = client(
      [
        envelope('unavailable', 'down', 503, { 'retry-after': new Date(0).toUTCString() }),
        envelope('unavailable', 'down', 503, { 'retry-after': '-5' }),
        json(validation),
      ],
      { retryDelayMs: 100 },
    );
    await tg.validatePre({ tool: 'orders.lookup', call_id: 'c1', arguments: {} });
    expect(sleeps).toHaveLength(2);
    for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(50);
  });

  it('takes only a JSON object as an answer: null, an empty body or an array is invalid_response, not retried', async () => {
    for (const body of ['null', '', '[]', '"allow"']) {
      const { tg, requests } = client([new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })]);
      await expect(tg.validatePost({ tool: 't.x', call_id: 'c', arguments: {}, result: {} }), body).rejects.toMatchObject({
        code: 'invalid_response',
        retryable: false,
      });
      expect(requests).toHaveLength(1);
    }
  });

  it('follows no redirect: a 3xx is an error, and the call is sent nowhere else', async () => {
    const inits: RequestInit[] = [];
    const tg = createToolgateClient({
      baseUrl: 'https://tg.example.com',
      apiKey: 'tg_test',
      fetch: async (_url, init) => {
        inits.push(init);
        return new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/allow' } });
      },
    });
    await expect(tg.validatePre({ tool: 'orders.lookup', call_id: 'c1', arguments: {} })).rejects.toMatchObject({ status: 307 });
    expect(inits).toHaveLength(1);
    expect(inits[0]?.redirect).toBe('manual');
  });

  it('does not send validate/post again when no answer came back (it may have been recorded)', async () => {
    const { tg, requests } = client([new TypeError('socket hang up'), json(validation)]);
    await expect(tg.validatePost({ tool: 't.x', call_id: 'c', arguments: {}, result: {} })).rejects.toMatchObject({
      code: 'network_error',
    });
    expect(requests).toHaveLength(1);
    // validate/pre is keyed by call_id: asking again is safe, and it does.
    const pre = client([new TypeError('socket hang up'), json(validation)]);
    await expect(pre.tg.validatePre({ tool: 'orders.lookup', call_id: 'c1', arguments: {} })).resolves.toMatchObject({ decision: 'allow' });
    expect(pre.requests).toHaveLength(2);
  });

  it('refuses numeric options that are not numbers in range, rather than loop or throw later', () => {
    const base = { baseUrl: 'https://tg.example.com', apiKey: 'tg_test' };
    for (const bad of [
      { timeoutMs: NaN },
      { timeoutMs: Infinity },
      { timeoutMs: -1 },
      { timeoutMs: 2 ** 32 },
      { maxAttempts: NaN },
      { maxAttempts: 0 },
    ])
      expect(() => createToolgateClient({ ...base, ...bad }), JSON.stringify(bad)).toThrow(RangeError);
    expect(() => createToolgateClient({ ...base, timeoutMs: 5000, maxAttempts: 2 })).not.toThrow();
  });
});

describe('waitForApproval', () => {
  const approval = (status: Approval['status'], extra: Partial<Approval> = {}): Approval => ({
    id: 'apr_1',
    status,
    tool: 'payments.refund',
    version: '2.1.0',
    call_id: 'c',
    trace_id: 't',
    approver_roles: ['approver'],
    reason: 'r',
    created_at: '',
    expires_at: '',
    decided_at: null,
    comment: null,
    token_used: false,
    outcome: status === 'approved' ? 'approved' : status === 'pending' ? 'pending' : 'denied',
    side_effect_level: 'external',
    approvals: 0,
    approvers_required: 1,
    escalation_level: 0,
    edited: false,
    rewritten_by: null,
    ...extra,
  });

  it('long-polls with ?wait=30 and falls back to the poll interval when the server answers at once', async () => {
    const { tg, requests, sleeps } = client(
      [json(approval('pending')), json(approval('pending')), json(approval('approved', { approval_token: 'tga_x' }))],
      { approvalPollIntervalMs: 1500 },
    );
    await expect(tg.waitForApproval('apr_1')).resolves.toMatchObject({ status: 'approved', approval_token: 'tga_x' });
    expect(requests.map((r) => r.url)).toEqual(Array(3).fill('https://tg.example.com/api/v1/approvals/apr_1?wait=30'));
    expect(sleeps).toEqual([1500, 1500]);
  });

  it('refuses a timeoutMs that is not a number instead of polling in a tight loop', async () => {
    const { tg, requests } = client([json(approval('pending'))]);
    await expect(tg.waitForApproval('apr_1', { timeoutMs: NaN })).rejects.toThrow(RangeError);
    expect(requests).toHaveLength(0);
  });

  it('does not pause when the server held the request open', async () => {
    let env: ReturnType<typeof client> | undefined = undefined;
    const heldOpen = (body: Approval) => () => {
      env!.advance(30_000);
      return json(body);
    };
    env = client([heldOpen(approval('pending')), heldOpen(approval('denied', { comment: 'no' }))]);
    await expect(env.tg.waitForApproval('apr_1')).resolves.toMatchObject({ status: 'denied', comment: 'no' });
    expect(env.sleeps).toEqual([]);
  });

  it('stops on denied and expired', async () => {
    for (const status of ['denied', 'expired'] as const) {
      const { tg, requests } = client([json(approval(status))]);
      await expect(tg.waitForApproval('apr_1')).resolves.toMatchObject({ status });
      expect(requests).toHaveLength(1);
    }
  });

  it('returns the approval still pending once timeoutMs has passed, shortening the last wait', async () => {
    const pending = () => json(approval('pending'));
    const { tg, requests, sleeps } = client([pending, pending, pending, pending], { approvalPollIntervalMs: 2000 });
    await expect(tg.waitForApproval('apr_1', { timeoutMs: 5000 })).resolves.toMatchObject({ status: 'pending' });
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['?wait=5', '?wait=3', '?wait=1', '']);
    expect(sleeps).toEqual([2000, 2000, 1000]);
  });
});
