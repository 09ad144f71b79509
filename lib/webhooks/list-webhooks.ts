import { db } from '../db';
import { webhookView, type WebhookView } from './webhook-view';

const RECENT_DELIVERIES = 5;

/** The tenant's webhooks (never their secrets), each with its latest deliveries. */
export async function listWebhooks(options: { tenantId: string }): Promise<WebhookView[]> {
  const rows = await db().webhook.findMany({
    where: { tenantId: options.tenantId },
    orderBy: { createdAt: 'asc' },
    include: {
      deliveries: {
        where: { tenantId: options.tenantId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: RECENT_DELIVERIES,
        select: {
          id: true,
          event: true,
          status: true,
          attempts: true,
          lastError: true,
          createdAt: true,
          deliveredAt: true,
          nextAttemptAt: true,
        },
      },
    },
  });
  return rows.map((row) => webhookView(row, row.deliveries));
}
