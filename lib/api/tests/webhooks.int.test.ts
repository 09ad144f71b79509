import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { refundPaymentContract } from '@/lib/contracts/examples';
import { createWebhookDispatcher, deliverDueWebhooks, MAX_ATTEMPTS, MAX_IN_FLIGHT_PER_TENANT } from '@/lib/webhooks/deliver-webhooks';
import { MAX_QUEUED_PER_WEBHOOK, OUTBOX_FULL } from '@/lib/webhooks/enqueue-webhook-event';
import { pruneWebhookDeliveries, SETTLED_DELIVERY_DAYS } from '@/lib/webhooks/prune-webhook-deliveries';
import { verifyWebhookSignature } from '@/lib/webhooks/webhook-signature';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { resetEnvForTests } from '@/lib/env';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import {
  listWebhooksHandler as listWebhooks,
  createWebhookHandler as createWebhook,
  deleteWebhookHandler as deleteWebhook,
} from '@/lib/api/handlers/webhooks';

/** The receiver below is on loopback, which only an operator's setting allows. */
function allowPrivateReceivers(allowed: boolean) {
  process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE = allowed ? '1' : '0';
  resetEnvForTests();
}

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real receiver on loopback; `failNext` makes the next N requests answer 500. */
const received: Received[] = [];
let failNext = 0;
let receiverUrl = '';
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    if (failNext > 0) {
      failNext--;
      res.writeHead(500).end('down for maintenance');
    } else {
      res.writeHead(204).end();
    }
  });
});

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let n = 0;

beforeAll(async () => {
  allowPrivateReceivers(true);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/toolgate`;
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, refundPaymentContract);
});

afterAll(async () => {
  delete process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE;
  resetEnvForTests();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(async () => {
  allowPrivateReceivers(true);
  received.length = 0;
  failNext = 0;
  await db().webhook.deleteMany({});
});

const requestRefund = async (key = t.agentKey) => {
  const res = await call(validatePre, {
    key,
    body: {
      tool: 'payments.refund',
      call_id: `w-${++n}`,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 100 + n, reason: 'duplicate' },
      context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });
  expect(res.body.decision).toBe('require_approval');
  return res.body.approval.id as string;
};

const register = async (key: string, body: Record<string, unknown> = { url: receiverUrl }) => {
  const res = await call(createWebhook, { key, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; events: string[] };
};

describe('webhook registration', () => {
  it('creates (secret shown once), lists and deletes, per tenant, for admins only', async () => {
    const created = await register(t.adminKey);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['approval.decided', 'approval.pending']);
    const listed = await call(listWebhooks, { key: t.adminKey });
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: created.id, url: receiverUrl, recent_deliveries: [] })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    expect((await call(listWebhooks, { key: other.adminKey })).body.webhooks).toEqual([]);
    expect((await call(createWebhook, { key: t.agentKey, body: { url: receiverUrl } })).status).toBe(403);
    expect((await call(deleteWebhook, { key: other.adminKey, params: { id: created.id } })).status).toBe(404);
    expect((await call(deleteWebhook, { key: t.adminKey, params: { id: created.id } })).status).toBe(200);
    expect((await call(deleteWebhook, { key: t.adminKey, params: { id: created.id } })).status).toBe(404);
  });

  it('accepts only bounded http(s) URLs without credentials, and known events', async () => {
    for (const url of [
      'ftp://example.com/x',
      'javascript:alert(1)',
      'not a url',
      'https://user:pw@example.com/x',
      'https://example.com:0/x',
      'http://[fe80::1%25eth0]/x',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const res = await call(createWebhook, { key: t.adminKey, body: { url } });
      expect(res.status, url).toBe(400);
    }
    // Whitespace and control characters: the parser drops or encodes them, so the stored URL
    // would not be the one called. Refused, naming the field.
    for (const url of [
      'https://hooks.example.com/ x',
      ' https://hooks.example.com/x',
      'https://hooks.example.com/x\n',
      'https://hooks.example.com/a\tb',
      'https://hooks.example.com/a\u0000b',
      'https://hooks.example.com/a\u00a0b',
    ]) {
      const res = await call(createWebhook, { key: t.adminKey, body: { url } });
      expect([res.status, res.body.error?.code], JSON.stringify(url)).toEqual([400, 'bad_request']);
      expect(res.body.error?.message, JSON.stringify(url)).toMatch(/url.*whitespace or control characters/);
    }
    expect((await call(createWebhook, { key: t.adminKey, body: { url: receiverUrl, events: ['approval.exploded'] } })).status).toBe(400);
    expect(
      (await call(createWebhook, { key: t.adminKey, body: { url: 'https://hooks.example.com/toolgate', events: ['approval.decided'] } }))
        .status,
    ).toBe(201);
  });
});

describe('webhooks and the private network (SSRF)', () => {
  it('refuses receivers on loopback, private, link-local and other non-public addresses by default', async () => {
    allowPrivateReceivers(false);
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://api.localhost/x',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.7/x',
      'http://[::1]/x',
      'http://[::ffff:192.168.1.1]/x',
      'http://0.0.0.0/x',
      'http://2130706433/x',
      'http://localhost./x',
      'http://LOCALHOST./x',
      'http://foo.localhost./x',
      'http://127.1/x',
      'http://0x7f.1/x',
      'http://0/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::127.0.0.1]/x',
    ]) {
      const res = await call(createWebhook, { key: t.adminKey, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details, url).toEqual({ reason: 'private_address' });
    }
    expect((await call(createWebhook, { key: t.adminKey, body: { url: 'https://hooks.example.com/toolgate' } })).status).toBe(201);
    expect(await db().webhook.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it('does not deliver to a name that resolves to a private address, whatever was registered', async () => {
    // As if `localhost` had been registered while allowed, or a public name now resolves here.
    await register(t.adminKey, { url: receiverUrl.replace('127.0.0.1', 'localhost'), events: ['approval.pending'] });
    allowPrivateReceivers(false);
    await requestRefund();
    expect(await deliverDueWebhooks()).toMatchObject({ claimed: 1, retrying: 1 });
    expect(received).toHaveLength(0);
    const row = await db().webhookDelivery.findFirstOrThrow({ where: { tenantId: t.tenant.id } });
    // Refused, and without the address the name resolved to (an oracle of the internal network).
    expect(row.lastError).toBe('Refused: the receiver is not at a public address.');
  });
});

describe('webhook delivery', () => {
  it('announces a new pending approval and its decision, signed, to the tenant that subscribed', async () => {
    const hook = await register(t.adminKey);
    await register(other.adminKey, { url: `${receiverUrl}?tenant=other` });
    const id = await requestRefund();
    // The outbox row was written by validate/pre's own transaction.
    expect(await db().webhookDelivery.count({ where: { tenantId: t.tenant.id, event: 'approval.pending' } })).toBe(1);

    expect(await deliverDueWebhooks()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(received).toHaveLength(1);
    const first = received[0] as Received;
    expect(first.headers['toolgate-event']).toBe('approval.pending');
    expect(first.headers['content-type']).toBe('application/json');
    expect(verifyWebhookSignature({ secret: hook.secret, header: String(first.headers['toolgate-signature']), body: first.body })).toBe(
      true,
    );
    expect(
      verifyWebhookSignature({
        secret: hook.secret,
        header: String(first.headers['toolgate-signature']),
        body: first.body.replace('pending', 'approved'),
      }),
    ).toBe(false);
    const payload = JSON.parse(first.body);
    expect(payload).toMatchObject({
      event: 'approval.pending',
      data: { approval: { id, status: 'pending', tool: 'payments.refund', queue_url: 'http://localhost:3000/approvals' } },
    });
    // Arguments never leave Toolgate in a webhook.
    expect(first.body).not.toContain('pay_abcdefgh12');

    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'deny', comment: 'no' } })).status).toBe(200);
    await deliverDueWebhooks();
    expect(received).toHaveLength(2);
    expect(JSON.parse((received[1] as Received).body)).toMatchObject({
      event: 'approval.decided',
      data: { approval: { id, status: 'denied', outcome: 'denied', comment: 'no' } },
    });
    // A refused decision changes nothing and announces nothing.
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(409);
    expect(await db().webhookDelivery.count({ where: { tenantId: t.tenant.id, event: 'approval.decided' } })).toBe(1);
    // The other tenant's webhook heard nothing of this tenant's approvals.
    expect(received.map((r) => r.url)).toEqual(['/hooks/toolgate', '/hooks/toolgate']);
  });

  it('retries a failing receiver with backoff, then delivers the same signed event', async () => {
    await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await requestRefund();
    failNext = 1;
    expect(await deliverDueWebhooks()).toMatchObject({ claimed: 1, retrying: 1 });
    const row = await db().webhookDelivery.findFirstOrThrow({ where: { tenantId: t.tenant.id } });
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 5_000);
    // Not due yet: nothing is sent.
    expect(await deliverDueWebhooks()).toMatchObject({ claimed: 0 });
    expect(await deliverDueWebhooks({ now: new Date(row.nextAttemptAt.getTime() + 1) })).toMatchObject({ delivered: 1 });
    expect(received).toHaveLength(2);
    expect(received[1]?.body).toBe(received[0]?.body);
    expect(received[1]?.headers['toolgate-delivery']).toBe(row.id);
    const listed = await call(listWebhooks, { key: t.adminKey });
    expect(listed.body.webhooks[0].recent_deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, last_error: null });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and marks the delivery failed`, async () => {
    await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await requestRefund();
    failNext = 100;
    let now = new Date();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliverDueWebhooks({ now });
      now = new Date(now.getTime() + 2 * 3_600_000);
    }
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { tenantId: t.tenant.id } })).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: 'HTTP 500',
    });
    expect(await deliverDueWebhooks({ now })).toMatchObject({ claimed: 0 });
    expect(received).toHaveLength(MAX_ATTEMPTS);
  });

  it('delivers once when several dispatchers run at the same time', async () => {
    await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await requestRefund();
    await requestRefund();
    const runs = await Promise.all([deliverDueWebhooks(), deliverDueWebhooks(), deliverDueWebhooks()]);
    expect(runs.reduce((sum, r) => sum + r.delivered, 0)).toBe(2);
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => r.headers['toolgate-delivery'])).size).toBe(2);
  });
});

describe('the outbox under a backlog', () => {
  /** A receiver that answers nothing until told to: a tenant's receiver that hangs. */
  const held: http.ServerResponse[] = [];
  const hanging = http.createServer((req, res) => {
    req.resume();
    held.push(res);
  });
  let hangingUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
  });
  afterAll(async () => {
    for (const res of held.splice(0)) res.writeHead(204).end();
    await new Promise((resolve) => hanging.close(resolve));
  });

  /** `count` deliveries queued for a webhook directly, due `ageMs` ago. */
  async function queue(tenantId: string, webhookId: string, count: number, ageMs = 60_000, status = 'pending') {
    const at = new Date(Date.now() - ageMs);
    await db().webhookDelivery.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        tenantId,
        webhookId,
        event: 'approval.pending',
        payload: JSON.stringify({ n: i }),
        status,
        nextAttemptAt: new Date(at.getTime() + i),
        createdAt: at,
      })),
    });
  }

  it("sends another tenant's delivery in the first pass while one tenant's backlog waits on a receiver that hangs", async () => {
    const slow = await register(other.adminKey, { url: hangingUrl, events: ['approval.pending'] });
    await queue(other.tenant.id, slow.id, 40, 3_600_000);
    await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await requestRefund();

    // One pass takes every tenant's oldest first: the newer delivery is not behind 40 older ones.
    const dispatcher = createWebhookDispatcher();
    expect(await dispatcher.tick()).toBe(1 + MAX_IN_FLIGHT_PER_TENANT);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 5_000 });
    expect(JSON.parse(received[0]!.body).event).toBe('approval.pending');
    await vi.waitFor(() => expect(held).toHaveLength(MAX_IN_FLIGHT_PER_TENANT), { timeout: 5_000 });
    // The hanging tenant keeps its few slots; a next tick takes no more of its deliveries.
    expect(dispatcher.inFlight()).toBe(MAX_IN_FLIGHT_PER_TENANT);
    expect(await dispatcher.tick()).toBe(0);

    for (const res of held.splice(0)) res.writeHead(204).end();
    await dispatcher.stop();
    expect(await db().webhookDelivery.count({ where: { tenantId: other.tenant.id, status: 'delivered' } })).toBe(MAX_IN_FLIGHT_PER_TENANT);
    expect(await dispatcher.tick()).toBe(MAX_IN_FLIGHT_PER_TENANT);
    await vi.waitFor(() => expect(held).toHaveLength(MAX_IN_FLIGHT_PER_TENANT), { timeout: 5_000 });
    for (const res of held.splice(0)) res.writeHead(204).end();
    await dispatcher.stop();
  });

  it('takes the due deliveries round-robin across tenants in a one-off pass too', async () => {
    const busy = await register(other.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await queue(other.tenant.id, busy.id, 30, 3_600_000);
    await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await requestRefund();
    expect(await deliverDueWebhooks({ limit: 3 })).toMatchObject({ claimed: 3, delivered: 3 });
    expect(await db().webhookDelivery.count({ where: { tenantId: t.tenant.id, status: 'delivered' } })).toBe(1);
    expect(await db().webhookDelivery.count({ where: { tenantId: other.tenant.id, status: 'delivered' } })).toBe(2);
  });

  it(`keeps an event for a webhook with ${MAX_QUEUED_PER_WEBHOOK} deliveries waiting as a failed delivery that says why`, async () => {
    const full = await register(t.adminKey, { url: hangingUrl, events: ['approval.pending'] });
    const fine = await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    await queue(t.tenant.id, full.id, MAX_QUEUED_PER_WEBHOOK - 1, 0, 'pending');
    await queue(t.tenant.id, full.id, 1, 0, 'sending');
    // Settled deliveries do not count.
    await queue(t.tenant.id, full.id, 5, 0, 'delivered');
    const id = await requestRefund();

    const [fullRow] = await db().webhookDelivery.findMany({ where: { webhookId: full.id, payload: { contains: id } } });
    expect(fullRow).toMatchObject({ status: 'failed', attempts: 0, lastError: OUTBOX_FULL });
    const [fineRow] = await db().webhookDelivery.findMany({ where: { webhookId: fine.id, payload: { contains: id } } });
    expect(fineRow).toMatchObject({ status: 'pending', lastError: null });
    const listed = await call(listWebhooks, { key: t.adminKey });
    const shown = listed.body.webhooks.find((w: { id: string }) => w.id === full.id);
    expect(shown.recent_deliveries[0]).toMatchObject({ status: 'failed', last_error: OUTBOX_FULL });

    // One fewer waiting, and the next event is queued again.
    await db().webhookDelivery.deleteMany({ where: { webhookId: full.id, status: 'sending' } });
    const next = await requestRefund();
    expect(await db().webhookDelivery.findFirst({ where: { webhookId: full.id, payload: { contains: next } } })).toMatchObject({
      status: 'pending',
    });
  });

  it(`prunes deliveries that ended more than ${SETTLED_DELIVERY_DAYS} days ago, and nothing still waiting`, async () => {
    const hook = await register(t.adminKey, { url: receiverUrl, events: ['approval.pending'] });
    const day = 86_400_000;
    await queue(t.tenant.id, hook.id, 3, (SETTLED_DELIVERY_DAYS + 1) * day, 'delivered');
    await queue(t.tenant.id, hook.id, 2, (SETTLED_DELIVERY_DAYS + 1) * day, 'failed');
    await queue(t.tenant.id, hook.id, 4, (SETTLED_DELIVERY_DAYS - 1) * day, 'delivered');
    await queue(t.tenant.id, hook.id, 1, (SETTLED_DELIVERY_DAYS + 30) * day, 'pending');
    expect(await pruneWebhookDeliveries()).toBe(5);
    const left = await db().webhookDelivery.groupBy({ by: ['status'], where: { webhookId: hook.id }, _count: { _all: true } });
    expect(Object.fromEntries(left.map((row) => [row.status, row._count._all]))).toEqual({ delivered: 4, pending: 1 });
  });
});
