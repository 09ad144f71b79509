import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { getWebhookHealth } from './webhook-health';

const NOW = new Date('2026-11-20T12:30:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

let tenantId: string;
const ids: Record<'failing' | 'recovered' | 'disabled', string> = { failing: '', recovered: '', disabled: '' };

type Delivery = { status: string; attempts: number; lastError?: string; createdAt: Date };

async function deliveries(tenant: string, webhookId: string, rows: Delivery[]) {
  await db().webhookDelivery.createMany({
    data: rows.map((row) => ({
      tenantId: tenant,
      webhookId,
      event: 'approval.pending',
      payload: '{}',
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError ?? null,
      createdAt: row.createdAt,
      nextAttemptAt: row.createdAt,
      deliveredAt: row.status === 'delivered' ? row.createdAt : null,
    })),
  });
}

beforeAll(async () => {
  tenantId = (await createTestTenant()).tenant.id;
  const hook = (url: string, disabledAt: Date | null = null) =>
    db().webhook.create({ data: { tenantId, url, events: 'approval.pending approval.decided', disabledAt } });
  ids.failing = (await hook('https://hooks.example.com/services/T000/B000/secret-token')).id;
  ids.recovered = (await hook('https://receiver.example.org:8443/toolgate')).id;
  ids.disabled = (await hook('https://old.example.net/x', ago(48 * HOUR))).id;

  await deliveries(tenantId, ids.failing, [
    { status: 'delivered', attempts: 1, createdAt: ago(20 * HOUR) },
    { status: 'failed', attempts: 8, lastError: 'HTTP 500', createdAt: ago(2 * HOUR) },
    { status: 'pending', attempts: 2, lastError: 'HTTP 503', createdAt: ago(10 * MIN) },
  ]);
  await deliveries(tenantId, ids.recovered, [
    // Older than the window: counted nowhere, except that it still waits.
    { status: 'pending', attempts: 0, createdAt: ago(50 * HOUR) },
    { status: 'delivered', attempts: 1, createdAt: ago(30 * HOUR) },
    { status: 'failed', attempts: 8, lastError: 'HTTP 404', createdAt: ago(5 * HOUR) },
    { status: 'delivered', attempts: 2, createdAt: ago(1 * HOUR) },
    { status: 'pending', attempts: 0, createdAt: ago(1 * MIN) },
    { status: 'sending', attempts: 1, createdAt: ago(30_000) },
    // Made after now: outside the window.
    { status: 'failed', attempts: 8, lastError: 'HTTP 500', createdAt: new Date(NOW.getTime() + 1000) },
  ]);
  await deliveries(tenantId, ids.disabled, [{ status: 'delivered', attempts: 1, createdAt: ago(40 * HOUR) }]);

  // Another tenant's outbox is older and failing: none of it shows here.
  const other = (await createTestTenant()).tenant.id;
  const theirs = await db().webhook.create({ data: { tenantId: other, url: 'https://theirs.example.com/', events: 'approval.pending' } });
  await deliveries(other, theirs.id, [
    { status: 'pending', attempts: 3, lastError: 'HTTP 502', createdAt: ago(70 * HOUR) },
    { status: 'failed', attempts: 8, lastError: 'HTTP 502', createdAt: ago(1 * HOUR) },
  ]);
});

describe('getWebhookHealth', () => {
  it('counts the last 24 hours of deliveries by outcome, finds the oldest still to be made and the endpoints failing now', async () => {
    expect(await getWebhookHealth({ tenantId, until: NOW })).toEqual({
      endpoints: 2,
      since: ago(24 * HOUR).toISOString(),
      delivered: 2,
      failed: 2,
      retrying: 1,
      waiting: 2,
      oldest_pending_at: ago(50 * HOUR).toISOString(),
      failing_endpoints: [
        {
          id: ids.failing,
          host: 'hooks.example.com',
          failed: 1,
          retrying: 1,
          last_error: 'HTTP 503',
          last_failure_at: ago(10 * MIN).toISOString(),
        },
      ],
    });
  });

  it('sees an endpoint fail again once its newest attempt fails, and recover once one arrives', async () => {
    await deliveries(tenantId, ids.recovered, [
      { status: 'pending', attempts: 1, lastError: 'Error: connect ECONNREFUSED', createdAt: ago(20_000) },
    ]);
    const failing = (await getWebhookHealth({ tenantId, until: NOW })).failing_endpoints;
    expect(failing.map((f) => [f.host, f.failed, f.retrying, f.last_error])).toEqual([
      // As many failures each: the latest failure first.
      ['receiver.example.org:8443', 1, 1, 'Error: connect ECONNREFUSED'],
      ['hooks.example.com', 1, 1, 'HTTP 503'],
    ]);
    await deliveries(tenantId, ids.failing, [{ status: 'delivered', attempts: 1, createdAt: ago(5_000) }]);
    expect((await getWebhookHealth({ tenantId, until: NOW })).failing_endpoints.map((f) => f.host)).toEqual(['receiver.example.org:8443']);
  });

  it('is empty for a tenant without webhooks', async () => {
    const { tenant } = await createTestTenant();
    expect(await getWebhookHealth({ tenantId: tenant.id, until: NOW })).toEqual({
      endpoints: 0,
      since: ago(24 * HOUR).toISOString(),
      delivered: 0,
      failed: 0,
      retrying: 0,
      waiting: 0,
      oldest_pending_at: null,
      failing_endpoints: [],
    });
  });
});
