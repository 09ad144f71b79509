import http from 'node:http';
import { request as httpRequest } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '@/lib/log';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { HTTP_METHODS } from '@/lib/api/http-methods';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { apiAllowedMethods } from '@/lib/api/api-methods';
import { API_SECURITY_HEADERS } from '@/lib/http/security-headers';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createDataPlaneServer, drainDataPlaneServer } from './server';
import { DATA_PLANE_ROUTES } from './routes';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let server: http.Server;
let base = '';

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  server = createDataPlaneServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** One concrete path per data-plane route. */
const PATHS = DATA_PLANE_ROUTES.map((route) => ({
  urlPath: route.path.replace('{id}', 'apr_123').replace('{server}', 'github'),
  method: route.method,
}));

function expectSecurityHeaders(res: Response, label: string) {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers.get(name), `${label}: ${name}`).toBe(value);
}

describe('the data-plane server (runtime endpoints only)', () => {
  it('answers other methods on its paths with 405, the same Allow as Next, and the envelope', async () => {
    expect(PATHS.length).toBe(DATA_PLANE_ROUTES.length);
    for (const { urlPath, method: served } of PATHS) {
      const nextAllow = (await nextRoutes.OPTIONS(new Request(`http://localhost${urlPath}`, { method: 'OPTIONS' }))).headers.get('allow');
      const options = await fetch(`${base}${urlPath}`, { method: 'OPTIONS' });
      expect(options.status, urlPath).toBe(204);
      expect(options.headers.get('allow'), urlPath).toBe(nextAllow);
      for (const method of HTTP_METHODS.filter((m) => m !== 'OPTIONS' && m !== served && !(m === 'HEAD' && served === 'GET'))) {
        const res = await fetch(`${base}${urlPath}`, { method, headers: { 'x-request-id': 'dp-405' } });
        const label = `${method} ${urlPath}`;
        expect(res.status, label).toBe(405);
        expect(res.headers.get('allow'), label).toBe(nextAllow);
        expectSecurityHeaders(res, label);
        if (method === 'HEAD') continue;
        expect(await res.json(), label).toEqual({
          error: {
            code: 'method_not_allowed',
            message: `${method} is not allowed on ${urlPath}; use ${nextAllow}.`,
            details: { allowed_methods: nextAllow?.split(', ') },
          },
          request_id: 'dp-405',
        });
      }
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const head = await fetch(`${base}/api/v1/approvals/apr_missing`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.agentKey}` },
    });
    const get = await fetch(`${base}/api/v1/approvals/apr_missing`, { headers: { authorization: `Bearer ${t.agentKey}` } });
    expect(get.status).toBe(404);
    expect(head.status).toBe(404);
    expect(await head.text()).toBe('');
  });

  it('reads the path and query whatever the Host header says, which made an unparseable URL and a 500', async () => {
    const port = (server.address() as AddressInfo).port;
    const ask = async (host: string, target: string) => {
      const answer = (
        await rawConversation(
          port,
          `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${t.agentKey}\r\nConnection: close\r\n\r\n`,
        )
      ).answer;
      return { status: Number(answer.split(' ')[1]), body: JSON.parse(answer.split('\r\n\r\n')[1] ?? 'null') };
    };
    for (const host of ['a b', '%', '[::1', 'evil.example:99999', 'x#', 'x?', 'x/y']) {
      expect(await ask(host, '/api/v1/approvals/apr_missing?wait=0'), host).toMatchObject({
        status: 404,
        body: { error: { code: 'not_found' } },
      });
      // The query is still read (not moved into a fragment or the path by the host).
      expect(await ask(host, '/api/v1/approvals/apr_missing?wait=soon'), host).toMatchObject({
        status: 400,
        body: { error: { code: 'bad_request' } },
      });
    }
  });

  it('puts the security headers on its answers: allow, errors and unknown paths', async () => {
    const allowed = await lookupCall('dp-h1');
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).decision).toBe('allow');
    expectSecurityHeaders(allowed, 'allow');
    const unauthorized = await fetch(`${base}/api/v1/validate/pre`, { method: 'POST', body: '{}' });
    expect(unauthorized.status).toBe(401);
    expectSecurityHeaders(unauthorized, '401');
    const unknown = await fetch(`${base}/api/v1/contracts`);
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown, '404');
  });
});

/** A request with any method: fetch refuses TRACE and CONNECT, Node's client sends them. */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Sends `raw` on a connection of its own (bytes no HTTP client would send); resolves with
 * everything read until the server closes it, and how long that took.
 */
function rawConversation(port: number, raw: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('close', () => resolve({ answer, ms: Date.now() - started }));
    socket.once('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('the server kept the connection open')));
  });
}

/** A call of the published lookup contract to this file's server, as an agent makes it. */
function lookupCall(callId: string): Promise<Response> {
  return fetch(`${base}/api/v1/validate/pre`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      tool: 'orders.lookup',
      call_id: callId,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    }),
  });
}

describe('one process: what Next is told of the caller', () => {
  it('tells Next the connection’s peer, not a forged X-Forwarded-For, and logs a caller refused for too many sign-ins once', async () => {
    const { resetSignInLimitedLogForTests } = await import('@/lib/auth/sign-in-limited-log');
    resetSignInLimitedLogForTests();
    const seen: (string | undefined)[] = [];
    const own = createDataPlaneServer({
      fallback: (req, res) => {
        seen.push(req.headers['x-toolgate-client-address'] as string | undefined);
        res.statusCode = req.url?.startsWith('/api/auth/sign-in') ? 429 : 200;
        res.end();
      },
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const port = (own.address() as AddressInfo).port;
    const warn = vi.spyOn(log, 'warn');
    const send = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', localAddress: '127.0.0.4', headers }, (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        });
        req.once('error', reject);
        req.end('{}');
      });
    try {
      const forged = { 'x-forwarded-for': '198.51.100.9', 'x-toolgate-client-address': '198.51.100.10' };
      expect(await send('/api/auth/sign-in/email', forged)).toBe(429);
      expect(await send('/api/auth/sign-in/email', forged)).toBe(429);
      expect(await send('/api/auth/get-session', forged)).toBe(200);
      expect(seen).toEqual(['127.0.0.4', '127.0.0.4', '127.0.0.4']);
      const lines = warn.mock.calls.filter(([message]) => message.startsWith('sign-in refused'));
      expect(lines).toEqual([
        ['sign-in refused: too many attempts from one address', { client_address: '127.0.0.4', path: '/api/auth/sign-in/email' }],
      ]);
    } finally {
      warn.mockRestore();
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });
});

describe('the data-plane server: what a body is encoded in', () => {
  it('reads the declared charset, refuses bytes that are not UTF-8 with where, and an unknown charset with 415', async () => {
    const json = JSON.stringify({
      tool: 'orders.lookup',
      call_id: 'dp-café',
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    });
    const post = (bytes: Buffer, contentType: string) =>
      fetch(`${base}/api/v1/validate/pre`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': contentType },
        body: new Uint8Array(bytes),
      });
    const latin1 = await post(Buffer.from(json, 'latin1'), 'application/json; charset=windows-1252');
    expect(latin1.status).toBe(200);
    expect((await latin1.json()).call_id).toBe('dp-café');
    const utf16 = await post(Buffer.from(json, 'utf16le'), 'application/json; charset="UTF-16LE"');
    expect(utf16.status).toBe(200);
    const undeclared = await post(Buffer.from(json, 'latin1'), 'application/json');
    expect(undeclared.status).toBe(400);
    expect((await undeclared.json()).error).toMatchObject({
      code: 'bad_request',
      details: { reason: 'invalid_utf8', offset: json.indexOf('é') },
    });
    const unknown = await post(Buffer.from(json), 'application/json; charset=ebcdic-not-really');
    expect(unknown.status).toBe(415);
    expect((await unknown.json()).error).toMatchObject({ code: 'unsupported_media_type', details: { charset: 'ebcdic-not-really' } });
    // The connection the refusals went out on still serves.
    expect((await post(Buffer.from(json), 'application/json')).status).toBe(200);
  });
});

describe('the data-plane server: a path that does not decode', () => {
  it('answers 400 bad_request, on its own routes and others', async () => {
    for (const urlPath of ['/api/v1/approvals/%E0%A4%A', '/api/v1/validate/%FF', '/%E0']) {
      const res = await fetch(`${base}${urlPath}`, { headers: { 'x-request-id': 'bad-path-2' } });
      expect(res.status, urlPath).toBe(400);
      expectSecurityHeaders(res, urlPath);
      expect(await res.json(), urlPath).toEqual({
        error: { code: 'bad_request', message: `The path ${urlPath} is not valid percent-encoded UTF-8.` },
        request_id: 'bad-path-2',
      });
    }
  });
});

describe('one process (Next behind the data-plane server): methods Next cannot take', () => {
  let withNext: http.Server;
  let nextBase = '';
  const reachedNext: string[] = [];
  const reachedHosts: string[] = [];

  beforeAll(async () => {
    // Next stands in: anything that reaches it is recorded. TRACE made Next answer 500 (its Request
    // constructor refuses the method), logged with a stack; other unknown methods an empty 400.
    withNext = createDataPlaneServer({
      fallback: (req, res) => {
        reachedNext.push(`${req.method} ${req.url}`);
        reachedHosts.push(req.headers.host ?? '');
        res.writeHead(200).end('next');
      },
      apiAllowedMethods,
    });
    await new Promise<void>((resolve) => withNext.listen(0, '127.0.0.1', resolve));
    nextBase = `http://127.0.0.1:${(withNext.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => withNext.close(resolve));
  });

  it("answers them itself: 405 with the route's Allow and the envelope on API paths, data-plane ones included", async () => {
    for (const [urlPath, allow] of [
      ['/api/v1/validate/pre', 'POST, OPTIONS'],
      ['/api/v1/approvals/apr_123', 'GET, HEAD, OPTIONS'],
      ['/api/v1/members', 'GET, HEAD, POST, OPTIONS'],
      ['/api/v1/invitations/accept', 'POST, OPTIONS'],
      ['/api/auth/sign-in/email', 'GET, HEAD, POST, OPTIONS'],
    ] as const) {
      for (const method of ['TRACE', 'PROPFIND', 'PURGE']) {
        const res = await rawRequest(`${nextBase}${urlPath}`, method, { 'x-request-id': 'unserved-1' });
        const label = `${method} ${urlPath}`;
        expect(res.status, label).toBe(405);
        expect(res.headers.allow, label).toBe(allow);
        for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name], `${label}: ${name}`).toBe(value);
        expect(JSON.parse(res.body), label).toEqual({
          error: {
            code: 'method_not_allowed',
            message: `${method} is not allowed on ${urlPath}; use ${allow}.`,
            details: { allowed_methods: allow.split(', ') },
          },
          request_id: 'unserved-1',
        });
      }
    }
    expect(reachedNext).toEqual([]);
  });

  it('answers 400 on a path whose percent-encoding does not decode, which Next answered with a bare 500', async () => {
    reachedNext.length = 0;
    for (const urlPath of ['/traces/%E0%A4%A', '/api/v1/traces/%E0%A4%A', '/api/v1/approvals/%E0%A4%A', '/contracts/%ZZ', '/%C0%AF']) {
      for (const method of ['GET', 'POST', 'TRACE']) {
        const res = await rawRequest(`${nextBase}${urlPath}`, method, { 'x-request-id': 'bad-path-1' });
        const label = `${method} ${urlPath}`;
        expect(res.status, label).toBe(400);
        for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers[name], `${label}: ${name}`).toBe(value);
        expect(JSON.parse(res.body), label).toEqual({
          error: { code: 'bad_request', message: `The path ${urlPath} is not valid percent-encoded UTF-8.` },
          request_id: 'bad-path-1',
        });
      }
    }
    expect(reachedNext).toEqual([]);
    // Escapes that decode, and a malformed one in the query (which pages and routes read leniently), still reach Next.
    await rawRequest(`${nextBase}/traces/a%20b%C3%A9`, 'GET');
    await rawRequest(`${nextBase}/traces?q=%E0%A4%A`, 'GET');
    expect(reachedNext).toEqual(['GET /traces/a%20b%C3%A9', 'GET /traces?q=%E0%A4%A']);
    reachedNext.length = 0;
  });

  it('takes an absolute-form target as its path (its host as Host), which Next answered with a 308 to the URL as given', async () => {
    reachedNext.length = 0;
    const port = (withNext.address() as AddressInfo).port;
    const ask = async (line: string, headers = '', body = '') =>
      (await rawConversation(port, `${line} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${headers}\r\n${body}`)).answer;
    await ask('GET http://evil.example/members?tab=x#frag');
    await ask(`GET HTTP://127.0.0.1:${port}`);
    await ask('GET http://user:pw@evil.example:8080/traces/a%20b');
    expect(reachedNext).toEqual(['GET /members?tab=x', 'GET /', 'GET /traces/a%20b']);
    expect(reachedHosts.slice(-3)).toEqual(['evil.example', `127.0.0.1:${port}`, 'evil.example:8080']);

    // The data plane's own routes too: an agent behind a proxy that forwards absolute form.
    const body = JSON.stringify({ tool: 'orders.lookup', call_id: 'absolute-1', arguments: { order_id: 'ord_1234567' } });
    const answer = await ask(
      `POST http://127.0.0.1:${port}/api/v1/validate/pre`,
      `Authorization: Bearer ${t.agentKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`,
      body,
    );
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toMatchObject({ call_id: 'absolute-1', decision: expect.any(String) });

    // Malformed ones, and the percent-encoding rule, as for any path.
    expect(await ask('GET http://[::1/x')).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(await ask('GET ftp://evil.example/members')).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(await ask('GET http://evil.example/traces/%E0%A4%A')).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(reachedNext).toHaveLength(3);
  });

  it('answers OPTIONS * with 204 and * with any other method 400, which Next answered with a bare 500', async () => {
    reachedNext.length = 0;
    const port = (withNext.address() as AddressInfo).port;
    const options = (await rawConversation(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).answer;
    expect(options.split('\r\n')[0]).toBe('HTTP/1.1 204 No Content');
    expect(options.toLowerCase()).toContain('x-content-type-options: nosniff');
    const get = (await rawConversation(port, 'GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: star-1\r\n\r\n')).answer;
    expect(get.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(get.split('\r\n\r\n')[1] ?? '')).toEqual({
      error: { code: 'bad_request', message: 'The request target * is for OPTIONS only, not GET.' },
      request_id: 'star-1',
    });
    expect(reachedNext).toEqual([]);
  });

  it('answers 404 on an API path no route serves and 405 (GET, HEAD) on a page; every method Next routes still reaches it', async () => {
    reachedNext.length = 0;
    const unknown = await rawRequest(`${nextBase}/api/v1/nothing-here`, 'TRACE');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('not_found');
    const page = await rawRequest(`${nextBase}/members`, 'TRACE');
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe('GET, HEAD');
    expect(reachedNext).toEqual([]);
    for (const method of HTTP_METHODS) await rawRequest(`${nextBase}/api/v1/members`, method);
    expect(reachedNext).toEqual(HTTP_METHODS.map((method) => `${method} /api/v1/members`));
  });
});

describe('what the HTTP parser refuses before any handler runs', () => {
  const parse = (answer: string) => {
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    return { statusLine, headers, body: JSON.parse(body) as unknown };
  };

  it.each([
    ['an unknown method', 'FOO /api/v1/validate/pre HTTP/1.1\r\nHost: x\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'bad_request'],
    [
      'a header line without a colon',
      'GET /metrics HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      'HTTP/1.1 400 Bad Request',
      'bad_request',
    ],
    [
      'a URL of 20 kB',
      `GET /api/v1/traces/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'HTTP/1.1 431 Request Header Fields Too Large',
      'headers_too_large',
    ],
    ['CONNECT', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', 'HTTP/1.1 405 Method Not Allowed', 'method_not_allowed'],
  ])('answers %s with the error envelope and closes the connection', async (_name, raw, statusLine, code) => {
    const answer = parse((await rawConversation((server.address() as AddressInfo).port, raw)).answer);
    expect(answer.statusLine).toBe(statusLine);
    expect(answer.body).toMatchObject({ error: { code, message: expect.any(String) } });
    expect(answer.headers).toMatchObject({ 'content-type': 'application/json', connection: 'close', ...API_SECURITY_HEADERS });
  });
});

describe('a caller that goes away mid-body', () => {
  it('is not logged as a database outage, and the server goes on answering', async () => {
    const errors = vi.spyOn(log, 'error');
    try {
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/v1/validate/pre HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.agentKey}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool":"orders.lookup"',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors.mock.calls.map(([message]) => message)).toEqual([]);
      const next = await lookupCall('after-abort');
      expect(next.status).toBe(200);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('slow callers and stopping', () => {
  /** GET /metrics on `agent`'s kept-alive connection, with the socket it came on (the answer lets go of it at its end). */
  function getMetrics(port: number, agent: http.Agent) {
    return new Promise<{ res: http.IncomingMessage; socket: net.Socket }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/metrics', agent }, (res) => {
        const socket = res.socket as net.Socket;
        res.resume();
        res.once('end', () => resolve({ res, socket }));
      });
      req.once('error', reject);
      req.end();
    });
  }

  async function listening(options: Parameters<typeof createDataPlaneServer>[0] = {}) {
    const own = createDataPlaneServer(options);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    return { own, port: (own.address() as AddressInfo).port };
  }

  it('answers 408 with the envelope to headers, or a body, that stop arriving, and closes the connection', async () => {
    const { own, port } = await listening({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const headers = await rawConversation(port, 'POST /api/v1/validate/pre HTTP/1.1\r\nHost: x\r\n');
      expect(headers.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(headers.answer).toContain('"code":"request_timeout"');
      expect(headers.ms).toBeLessThan(5_000);
      const body = await rawConversation(
        port,
        `POST /api/v1/validate/pre HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.agentKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tool":`,
      );
      expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(body.ms).toBeLessThan(5_000);
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it('when stopping, answers a kept-alive connection with Connection: close and closes once it is done', async () => {
    const { own, port } = await listening();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = async () => (await getMetrics(port, agent)).res;
    try {
      expect((await get()).headers.connection).toBe('keep-alive');
      // The server starts stopping as the next call on the kept connection arrives.
      const closed = new Promise<void>((resolve) => own.prependOnceListener('request', () => drainDataPlaneServer(own, resolve)));
      expect((await get()).headers.connection).toBe('close');
      await closed;
    } finally {
      agent.destroy();
    }
  });

  it('when stopping, still answers a call that arrives on a connection idle when the stop began, then closes those left idle', async () => {
    const { own, port } = await listening();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = async () => (await getMetrics(port, agent)).res;
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get();
      expect(first.headers.connection).toBe('keep-alive');
      // A second agent that keeps its connection idle through the stop.
      const { res: idle, socket: idleSocket } = await getMetrics(port, idleAgent);
      expect(idle.headers.connection).toBe('keep-alive');
      const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));
      let closed = false;
      const stopped = new Promise<void>((resolve) =>
        drainDataPlaneServer(
          own,
          () => {
            closed = true;
            resolve();
          },
          300,
        ),
      );
      // The call comes after the stop began, on a connection that was idle then: answered.
      const late = await get();
      expect(late.statusCode).toBe(first.statusCode);
      expect(late.headers.connection).toBe('close');
      expect(closed).toBe(false);
      // No new connections are taken.
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
      await idleClosed;
      await stopped;
    } finally {
      agent.destroy();
      idleAgent.destroy();
    }
  });
});
