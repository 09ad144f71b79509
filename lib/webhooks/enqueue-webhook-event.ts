import { randomUUID } from 'node:crypto';
import type { Tx } from '../db';
import type { WebhookEvent } from './webhook-events';

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
  await tx.webhookDelivery.createMany({
    data: targets.map((hook) => ({ tenantId: options.tenantId, webhookId: hook.id, event: options.event, payload, nextAttemptAt: now })),
  });
  return targets.length;
}
