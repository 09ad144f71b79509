import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { loadValidatePre, startDataPlane, type DataPlaneProcess } from '@/lib/testing/data-plane-process';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let server: DataPlaneProcess | undefined;
const body = (i: number) => ({
  tool: 'orders.lookup',
  call_id: `dp-${i}`,
  arguments: { tenant_id: 'acme', order_id: i % 5 ? 'ord_abc123' : 'BAD' },
  context: { tenant_id: 'acme' },
});

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  server = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string });
});

afterAll(async () => {
  await server?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
type Json = Record<string, any>;

async function post(path: string, payload: unknown, key = t.agentKey) {
  const res = await fetch(`${server?.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

describe('data plane server', () => {
  it('answers validate/pre like the route handler, with evidence committed', async () => {
    const res = await post('/api/v1/validate/pre', body(1));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decision: 'allow', valid: true, version: '1.3.0' });
    expect(await db().evidence.count({ where: { id: res.body.evidence_id } })).toBe(1);
    // The request id the server made is the record's id, not stored a second time (lib/evidence/first-record-id.ts).
    expect(res.body.evidence_id).toBe(res.headers.get('x-request-id'));
    expect(await db().evidence.findUnique({ where: { id: res.body.evidence_id }, select: { requestId: true } })).toEqual({ requestId: '' });
    const refused = await post('/api/v1/validate/pre', body(5));
    expect(refused.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_PATTERN_MISMATCH']);
    expect((await post('/api/v1/validate/pre', body(1), 'tg_nope_000000000000000000000000')).status).toBe(401);
  });

  it('refuses a number a double cannot hold as the route handler does: a recorded deny on validate/pre, a 400 elsewhere', async () => {
    const raw = (path: string, text: string) =>
      fetch(`${server?.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': 'application/json' },
        body: text,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Json }));
    const pre = await raw(
      '/api/v1/validate/pre',
      '{"tool":"orders.lookup","call_id":"dp-big","arguments":{"tenant_id":"acme","order_id":9007199254740993},"context":{"tenant_id":"acme"}}',
    );
    expect(pre.status).toBe(200);
    expect(pre.body.errors.map((e: { code: string; path: string }) => [e.code, e.path])).toEqual([
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.order_id'],
    ]);
    expect(await db().evidence.count({ where: { id: pre.body.evidence_id, decision: 'deny' } })).toBe(1);
    const manifest = await raw('/api/v1/manifests/validate', '{"manifest":{"ToolCalls":[{"ToolCallId":1e309}]}}');
    expect(manifest.status).toBe(400);
    expect(manifest.body.error).toMatchObject({ code: 'number_unrepresentable', details: { path: '$.manifest.ToolCalls[0].ToolCallId' } });
  });

  it('reads headers as the Web Request does: a repeated Authorization is refused, x-request-id is echoed', async () => {
    const { request } = await import('node:http');
    const raw = (headers: string[]) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const payload = JSON.stringify(body(6));
        const url = new URL(`${server?.url}/api/v1/validate/pre`);
        // Raw header pairs: Node's own req.headers would keep only the first Authorization.
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: [
              ...headers,
              'host',
              url.host,
              'content-type',
              'application/json',
              'content-length',
              String(Buffer.byteLength(payload)),
            ],
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    const twice = await raw(['authorization', `Bearer ${t.agentKey}`, 'authorization', 'Bearer tg_other_000000000000000000000000']);
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.body).error.code).toBe('unauthorized');
    const once = await raw(['Authorization', `Bearer ${t.agentKey}`, 'X-Request-Id', 'req-dp-1']);
    expect(once.status).toBe(200);
    expect(once.headers['x-request-id']).toBe('req-dp-1');
    expect(once.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(once.headers['content-length'])).toBe(Buffer.byteLength(once.body));
    expect(JSON.parse(once.body)).toMatchObject({ decision: 'allow', call_id: 'dp-6' });
  });

  it('serves manifest and pipeline validation on the same lean path, recorded as evidence', async () => {
    const manifest = {
      ToolCalls: [{ ToolCallId: 'c1', Name: 'search' }],
      ToolCallResults: [{ ToolCallId: 'c1', Name: 'search', ResultJson: '{"hits":1}' }],
    };
    const ok = await post('/api/v1/manifests/validate', { manifest });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, entry: 'manifest', errors: [] });
    expect(await db().evidence.count({ where: { id: ok.body.evidence_id, kind: 'manifest', tenant: { tenantId: t.tenant.id } } })).toBe(1);
    const bad = await post('/api/v1/manifests/validate', {
      manifest: { ...manifest, ToolCallResults: [{ ToolCallId: 'c1', Name: 'search' }] },
    });
    expect(bad.body.valid).toBe(false);
    const pipeline = await post('/api/v1/pipeline/validate', { entry: 'core', context: {} });
    expect(pipeline.status).toBe(200);
    expect(pipeline.body.valid).toBe(false);
  });

  it('refuses an oversized body with 413 and serves nothing but the runtime endpoints', async () => {
    const big = await fetch(`${server?.url}/api/v1/validate/pre`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    const other = await fetch(`${server?.url}/api/v1/contracts`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('serves a newly published version within a poll of the change counters', async () => {
    expect((await post('/api/v1/validate/pre', body(2))).body.version).toBe('1.3.0');
    await publishContract(t.tenant.id, { ...lookupOrderContract, version: '1.4.0' });
    await expect
      .poll(async () => (await post('/api/v1/validate/pre', body(3))).body.version, { timeout: 5000, interval: 100 })
      .toBe('1.4.0');
  });

  it('stops accepting a revoked key on another instance within a poll', async () => {
    const { createApiKey, revokeApiKey } = await import('@/lib/auth/api-keys');
    const extra = await createApiKey({ tenantId: t.tenant.id, name: 'short-lived', scopes: ['validate'] });
    expect((await post('/api/v1/validate/pre', body(4), extra.key)).status).toBe(200);
    await revokeApiKey({ tenantId: t.tenant.id, id: extra.apiKey.id });
    await expect
      .poll(async () => (await post('/api/v1/validate/pre', body(4), extra.key)).status, { timeout: 5000, interval: 100 })
      .toBe(401);
  });
});

describe('crash safety', () => {
  it('after kill -9 under load, every answered call has exactly one evidence record and the chain verifies', async () => {
    const running = server as DataPlaneProcess;
    const load = loadValidatePre({ urls: [running.url], key: t.agentKey, body, workers: 16, durationMs: 4000, stopOnError: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await running.kill9();
    const result = await load;
    expect(result.answered.size).toBeGreaterThan(50);
    expect(result.failures).toBeGreaterThan(0);

    server = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string });
    const ids = [...result.answered.values()];
    const found = await db().evidence.findMany({ where: { id: { in: ids } }, select: { id: true, requestId: true } });
    expect(found.length).toBe(ids.length);
    // The load sends its own x-request-id, stored in full ('' is a record whose request id is its own id, one each).
    const byRequest = await db().evidence.groupBy({
      by: ['requestId'],
      where: { tenant: { tenantId: t.tenant.id }, requestId: { not: '' } },
      _count: { _all: true },
    });
    expect(byRequest.filter((g) => g._count._all > 1)).toEqual([]);
    const chain = await verifyEvidenceChain({ tenantId: t.tenant.id });
    expect(chain).toMatchObject({ valid: true, firstBroken: null });
    // The restarted instance continues the same chain.
    const after = await post('/api/v1/validate/pre', body(7));
    expect(after.status).toBe(200);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});

describe('stopping', () => {
  type Answer = { status: number; connection: string | undefined; body: Json };
  /** One request on a kept-alive agent (fetch would open connections of its own). */
  const request = (agent: http.Agent, port: string, path: string, payload?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: payload === undefined ? 'GET' : 'POST',
          agent,
          headers: { authorization: `Bearer ${t.agentKey}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) as Json }),
          );
        },
      );
      req.once('error', reject);
      req.end(payload === undefined ? undefined : JSON.stringify(payload));
    });
  const refused = (port: string) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });

  it('on SIGTERM, answers its long polls, answers and records a call sent on a connection kept alive before it, takes no new connection, and exits', async () => {
    const own = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string, env: { TOOLGATE_DRAIN_GRACE_SECONDS: '3' } });
    const { port } = new URL(own.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const pollAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refund = await post('/api/v1/validate/pre', {
      tool: 'payments.refund',
      call_id: 'stop-refund',
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 9000, reason: 'duplicate' },
      context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
    });
    expect(refund.body.decision).toBe('require_approval');
    const approvalPath = `/api/v1/approvals/${refund.body.approval.id}`;
    try {
      expect((await request(agent, port, '/api/v1/validate/pre', body(501))).connection).toBe('keep-alive');
      expect((await request(pollAgent, port, approvalPath)).connection).toBe('keep-alive');
      // An agent long-polling the approval when the stop comes, on its kept connection: answered
      // whether it is parked before the stop (which ends the wait) or read after it (which parks nothing).
      const polling = request(pollAgent, port, `${approvalPath}?wait=30`);
      own.child.kill('SIGTERM');
      const polled = await polling;
      expect(polled.status).toBe(200);
      expect(polled.body.status).toBe('pending');
      expect(polled.connection).toBe('close');
      // Stopped listening: the stop has begun, and the other kept connection is idle through it.
      await expect.poll(() => refused(port), { timeout: 5000, interval: 50 }).toBe(true);
      const late = await request(agent, port, '/api/v1/validate/pre', body(506));
      expect(late.status).toBe(200);
      expect(late.connection).toBe('close');
      expect(await db().evidence.count({ where: { id: late.body.evidence_id } })).toBe(1);
      await own.stop();
      expect(own.child.exitCode).toBe(0);
    } finally {
      agent.destroy();
      pollAgent.destroy();
      await own.kill9();
    }
  });
});
