import { randomUUID } from 'node:crypto';
import type { Tx } from '../db';
import type { WebhookEvent } from './webhook-events';
import { log } from '../log';

/**
 * The outbox: one WebhookDelivery row per subscribed webhook, written with `tx`, i.e. in the
 * same transaction that makes the event happen. An event is announced exactly when it
 * committed, and a crash between commit and delivery loses nothing (lib/webhooks/deliver-webhooks.ts
 * picks the rows up on any instance). Returns how many deliveries were queued.
 */
export async function enqueueWebhookEvent(
  tx: Tx,
  options: { tenantId: string; event: WebhookEvent; data: Record<string, unknown>; now?: Date },
): Promise<number> {
  const hooks = await tx.webhook.findMany({ where: { tenantId: options.tenantId, disabledAt: null }, select: { id: true, events: true } });
  const targets = hooks.filter((hook) => hook.events.split(' ').includes(options.event));
  if (targets.length === 0) return 0;
  const now = options.now ?? new Date();
  // One event id for every receiver: a receiver subscribed twice can tell the copies apart by
  // the Toolgate-Delivery header, and a retried delivery repeats the same event id.
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    event: options.event,
    created_at: now.toISOString(),
    data: options.data,
  });
  // A receiver that is down or slow while events keep coming must not grow the outbox without
  // end: past MAX_QUEUED_PER_WEBHOOK waiting deliveries, the event is kept as a failed delivery
  // that says why (Settings and GET /webhooks show it), not sent.
  const waiting = await tx.webhookDelivery.groupBy({
    by: ['webhookId'],
    where: { webhookId: { in: targets.map((hook) => hook.id) }, status: { in: ['pending', 'sending'] } },
    _count: { _all: true },
  });
  const queued = new Map(waiting.map((row) => [row.webhookId, row._count._all]));
  const full = targets.filter((hook) => (queued.get(hook.id) ?? 0) >= MAX_QUEUED_PER_WEBHOOK);
  if (full.length > 0) {
    log.warn('webhook outbox full: event not sent', {
      tenant: options.tenantId,
      event: options.event,
      webhooks: full.map((hook) => hook.id),
    });
  }
  await tx.webhookDelivery.createMany({
    data: targets.map((hook) => ({
      tenantId: options.tenantId,
      webhookId: hook.id,
      event: options.event,
      payload,
      nextAttemptAt: now,
      ...(full.includes(hook) ? { status: 'failed', lastError: OUTBOX_FULL } : {}),
    })),
  });
  return targets.length;
}

/** Deliveries waiting (pending or being sent) for one webhook beyond which new events are not queued for it. */
export const MAX_QUEUED_PER_WEBHOOK = 1000;
export const OUTBOX_FULL = `Not sent: ${MAX_QUEUED_PER_WEBHOOK} earlier deliveries to this webhook were still waiting (the receiver is down or not keeping up).`;
