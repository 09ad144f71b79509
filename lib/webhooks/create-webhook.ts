import { db } from '../db';
import { AppError } from '../errors';
import { getInstanceSecret } from '../auth/instance-secret';
import { deriveWebhookSecret } from './webhook-signature';
import type { WebhookEvent } from './webhook-events';
import { webhookView, type WebhookView } from './webhook-view';
import { blockedWebhookHost } from './webhook-address';
import { env } from '../env';

/** Per tenant: enough for a chat hook, a pager and a custom service, small enough to deliver. */
export const MAX_WEBHOOKS_PER_TENANT = 10;

/**
 * Registers a webhook. The answer carries the signing secret, the only time it is shown: it is
 * derived from the instance secret and the id, never stored (lib/webhooks/webhook-signature.ts).
 */
export async function createWebhook(options: {
  tenantId: string;
  url: string;
  events: WebhookEvent[];
}): Promise<WebhookView & { secret: string }> {
  const blocked = env().TOOLGATE_WEBHOOK_ALLOW_PRIVATE ? null : blockedWebhookHost(new URL(options.url));
  if (blocked) {
    throw new AppError(
      'bad_request',
      `Webhook receivers must be on public addresses: ${blocked}. (An operator can allow private receivers with TOOLGATE_WEBHOOK_ALLOW_PRIVATE=1.)`,
      {
        reason: 'private_address',
      },
    );
  }
  const existing = await db().webhook.count({ where: { tenantId: options.tenantId } });
  if (existing >= MAX_WEBHOOKS_PER_TENANT) {
    throw new AppError('conflict', `A tenant can have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks; delete one first.`, {
      limit: MAX_WEBHOOKS_PER_TENANT,
    });
  }
  const events = [...new Set(options.events)].sort();
  const row = await db().webhook.create({ data: { tenantId: options.tenantId, url: options.url, events: events.join(' ') } });
  return { ...webhookView(row, []), secret: deriveWebhookSecret(await getInstanceSecret(), row.id) };
}
