import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { deliverDueWebhooks, MAX_ATTEMPTS } from '@/lib/webhooks/deliver-webhooks';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { signIn } from '@/lib/api/tests/member-sessions';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { createWebhookHandler as createWebhook } from '@/lib/api/handlers/webhooks';
import { HEAD as headRoute, POST as postRoute } from '@/app/metrics/route';
import { parseExposition, sampleValue, type Sample } from './testing/parse-exposition';
import { bearer, scrapeMetrics } from '@/lib/testing/scrape-metrics';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
/** A tool only the other tenant has: its name must never reach this tenant's admin. */
const secretContract = { ...lookupOrderContract, id: 'vault.open_secretly' };

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let n = 0;

const lookup = (key: string, orderId: string, tool = 'orders.lookup') =>
  call(validatePre, {
    key,
    body: { tool, call_id: `m-${++n}`, arguments: { tenant_id: 'acme', order_id: orderId }, context: { tenant_id: 'acme' } },
  });
const refund = () =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: `m-${++n}`,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 100 + n, reason: 'duplicate' },
      context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });

/** GET /metrics through the Next route file, as Next calls it. */

/** A webhook receiver that is always down. */
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(500).end('down'));
});

beforeAll(async () => {
  process.env.TOOLGATE_METRICS_TOKEN = TOKEN;
  process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE = '1';
  resetEnvForTests();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, secretContract);

  const hook = await call(createWebhook, {
    key: t.adminKey,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['approval.decided'] },
  });
  expect(hook.status).toBe(201);

  // The known traffic: two allowed lookups, a refused one, an unknown tool, a post check, two
  // refunds held for approval and one of them approved.
  expect((await lookup(t.agentKey, 'ord_abc123')).body.decision).toBe('allow');
  expect((await lookup(t.agentKey, 'ord_abc456')).body.decision).toBe('allow');
  expect((await lookup(t.agentKey, 'BAD')).body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_PATTERN_MISMATCH']);
  expect((await lookup(t.agentKey, 'ord_abc123', 'orders.made_up')).body.decision).toBe('deny');
  const post = await call(validatePost, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: 'm-post',
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      result: { order_id: 'ord_abc123', status: 'paid' },
    },
  });
  expect(post.body.decision).toBe('allow');
  const held = await refund();
  expect(held.body.decision).toBe('require_approval');
  expect((await refund()).body.decision).toBe('require_approval');
  const approved = await call(decide, { key: t.adminKey, params: { id: held.body.approval.id }, body: { decision: 'approve' } });
  expect(approved.status).toBe(200);
  expect((await lookup(other.agentKey, 'ord_abc123', 'vault.open_secretly')).body.decision).toBe('allow');

  // The approval.decided delivery fails once (retried later), then on its last attempt (given up).
  expect(await deliverDueWebhooks()).toMatchObject({ claimed: 1, retrying: 1 });
  await db().webhookDelivery.updateMany({
    where: { tenantId: t.tenant.id },
    data: { attempts: MAX_ATTEMPTS - 1, nextAttemptAt: new Date(0) },
  });
  expect(await deliverDueWebhooks()).toMatchObject({ claimed: 1, failed: 1 });
});

afterAll(async () => {
  delete process.env.TOOLGATE_METRICS_TOKEN;
  delete process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE;
  resetEnvForTests();
  await new Promise((resolve) => receiver.close(resolve));
});

/** The samples of one metric, as `labels → value`, keeping only the labels named. */
function series(samples: Sample[], name: string, labelNames: string[], where: Record<string, string> = {}) {
  const out: Record<string, number> = {};
  for (const sample of samples) {
    if (sample.name !== name || Object.entries(where).some(([k, v]) => sample.labels[k] !== v)) continue;
    out[labelNames.map((label) => sample.labels[label] ?? '').join(' ')] = sample.value;
  }
  return out;
}

const EXPECTED_DECISIONS = {
  'pre orders.lookup allow none': 2,
  'pre orders.lookup deny AXAG_PATTERN_MISMATCH': 1,
  'pre unresolved deny AXAG_UNKNOWN_TOOL': 1,
  'post orders.lookup allow none': 1,
  'pre payments.refund require_approval AXAG_APPROVAL_MISSING': 2,
  'approval_decision payments.refund approved none': 1,
};

describe('GET /metrics with the metrics token (the operator)', () => {
  it('counts the known traffic per tenant, with the instance and process metrics', async () => {
    const res = await scrapeMetrics(bearer(TOKEN));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { samples } = res;
    const tenant = { tenant: t.tenant.id };
    expect(series(samples, 'toolgate_decisions_total', ['kind', 'tool', 'decision', 'code'], tenant)).toEqual(EXPECTED_DECISIONS);
    expect(series(samples, 'toolgate_decisions_total', ['kind', 'tool', 'decision', 'code'], { tenant: other.tenant.id })).toEqual({
      'pre vault.open_secretly allow none': 1,
    });
    expect(series(samples, 'toolgate_decision_duration_seconds_count', ['kind', 'decision'], tenant)).toEqual({
      'pre allow': 2,
      'pre deny': 2,
      'post allow': 1,
      'pre require_approval': 2,
    });
    // Every record of the tenant was committed once: the calls and the approval decision.
    const records = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
    expect(sampleValue(samples, 'toolgate_evidence_commit_duration_seconds_count', tenant)).toBe(records);
    expect(sampleValue(samples, 'toolgate_evidence_commit_duration_seconds_bucket', { ...tenant, le: '+Inf' })).toBe(records);
    expect(sampleValue(samples, 'toolgate_pending_approvals', tenant)).toBe(1);
    expect(sampleValue(samples, 'toolgate_pending_approvals', { tenant: other.tenant.id })).toBeUndefined();
    expect(series(samples, 'toolgate_tenant_info', ['tenant', 'slug'])).toEqual({
      [`${t.tenant.id} ${t.tenant.slug}`]: 1,
      [`${other.tenant.id} ${other.tenant.slug}`]: 1,
    });
    expect(series(samples, 'toolgate_webhook_delivery_failures_total', ['final'], tenant)).toEqual({ false: 1, true: 1 });
    expect(sampleValue(samples, 'toolgate_webhook_deliveries_total', tenant)).toBe(0);
    expect(sampleValue(samples, 'toolgate_evidence_queue_depth')).toBe(0);
    // The first lookup of each contract missed the cache; the second lookup of orders.lookup hit it.
    expect(sampleValue(samples, 'toolgate_cache_misses_total', { cache: 'contracts' })).toBeGreaterThanOrEqual(3);
    expect(sampleValue(samples, 'toolgate_cache_hits_total', { cache: 'contracts' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'toolgate_cache_hits_total', { cache: 'api_keys' })).toBeGreaterThanOrEqual(1);
    expect(series(samples, 'toolgate_telemetry_spans_dropped_total', ['reason'])).toEqual({ queue_full: 0, export_failed: 0 });
    expect(sampleValue(samples, 'toolgate_telemetry_spans_exported_total')).toBe(0);
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(res.text).toContain('# TYPE toolgate_decisions_total counter');
    expect(res.text).toContain('# TYPE toolgate_decision_duration_seconds histogram');
  });

  it('is served the same by the data plane, which refuses other methods with the 405 envelope', async () => {
    const server = createDataPlaneServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
      const res = await fetch(url, { headers: bearer(TOKEN) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const samples = parseExposition(await res.text());
      expect(series(samples, 'toolgate_decisions_total', ['kind', 'tool', 'decision', 'code'], { tenant: t.tenant.id })).toEqual(
        EXPECTED_DECISIONS,
      );
      const head = await fetch(url, { method: 'HEAD', headers: bearer(TOKEN) });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect((await fetch(url)).status).toBe(401);
      const posted = await fetch(url, { method: 'POST', headers: bearer(TOKEN) });
      expect(posted.status).toBe(405);
      expect(posted.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(((await posted.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('GET /metrics with an admin API key (a tenant)', () => {
  it("shows only the key's own tenant, without the tenant label or the instance's metrics", async () => {
    const res = await scrapeMetrics(bearer(t.adminKey));
    expect(res.status).toBe(200);
    const { samples, text } = res;
    expect(series(samples, 'toolgate_decisions_total', ['kind', 'tool', 'decision', 'code'])).toEqual(EXPECTED_DECISIONS);
    expect(sampleValue(samples, 'toolgate_pending_approvals')).toBe(1);
    expect(series(samples, 'toolgate_webhook_delivery_failures_total', ['final'])).toEqual({ false: 1, true: 1 });
    expect(sampleValue(samples, 'toolgate_decision_duration_seconds_count', { kind: 'pre', decision: 'allow' })).toBe(2);
    expect(samples.every((sample) => sample.labels.tenant === undefined)).toBe(true);
    const names = new Set(samples.map((sample) => sample.name.replace(/_(bucket|sum|count)$/, '')));
    expect([...names].sort()).toEqual([
      'toolgate_decision_duration_seconds',
      'toolgate_decisions_total',
      'toolgate_evidence_commit_duration_seconds',
      'toolgate_pending_approvals',
      'toolgate_webhook_deliveries_total',
      'toolgate_webhook_delivery_failures_total',
    ]);
    // Nothing of the other tenant: not its id, not its tool.
    expect(text).not.toContain(other.tenant.id);
    expect(text).not.toContain('vault.open_secretly');
    expect(text).not.toContain(t.tenant.id);
    expect(text).toContain('# TYPE toolgate_decision_duration_seconds histogram');

    const theirs = await scrapeMetrics(bearer(other.adminKey));
    expect(series(theirs.samples, 'toolgate_decisions_total', ['kind', 'tool', 'decision', 'code'])).toEqual({
      'pre vault.open_secretly allow none': 1,
    });
    expect(sampleValue(theirs.samples, 'toolgate_pending_approvals')).toBe(0);
    expect(theirs.text).not.toContain('orders.lookup');
  });
});

describe('who may scrape', () => {
  it('refuses no credentials and wrong ones with 401, and a key without the admin scope with 403', async () => {
    const none = await scrapeMetrics();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.parse(none.text)).toMatchObject({ error: { code: 'unauthorized' }, request_id: expect.any(String) });
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), 'tg_nope_000000000000000000000000']) {
      const res = await scrapeMetrics(bearer(wrong));
      expect(res.status, wrong).toBe(401);
      expect(JSON.parse(res.text).error.code).toBe('unauthorized');
    }
    expect((await scrapeMetrics({ authorization: TOKEN })).status).toBe(401);
    const agent = await scrapeMetrics(bearer(t.agentKey));
    expect(agent.status).toBe(403);
    expect(JSON.parse(agent.text)).toMatchObject({ error: { code: 'forbidden', details: { required_scope: 'admin' } } });
  });

  it('takes no cookies: a signed-in admin browser, from this site or another, gets no data', async () => {
    const email = `admin-${t.tenant.slug}@test.local`;
    await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role: 'admin' });
    const { cookie } = await signIn(email, 'a-long-password');
    expect(cookie).toContain('session_token');
    for (const origin of ['http://localhost:3000', 'https://evil.example']) {
      const res = await scrapeMetrics({ cookie, origin, 'sec-fetch-site': 'cross-site' });
      expect(res.status, origin).toBe(401);
      expect(res.text).not.toContain('toolgate_');
    }
    const posted = await postRoute(new Request('http://localhost/metrics', { method: 'POST', headers: { cookie, ...bearer(TOKEN) } }));
    expect(posted.status).toBe(405);
  });

  it('answers HEAD like GET without a body, and the token alone stops working once it is unset', async () => {
    const head = await headRoute(new Request('http://localhost/metrics', { method: 'HEAD', headers: bearer(TOKEN) }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    delete process.env.TOOLGATE_METRICS_TOKEN;
    resetEnvForTests();
    try {
      expect((await scrapeMetrics(bearer(TOKEN))).status).toBe(401);
      expect((await scrapeMetrics(bearer(t.adminKey))).status).toBe(200);
    } finally {
      process.env.TOOLGATE_METRICS_TOKEN = TOKEN;
      resetEnvForTests();
    }
  });
});
