import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events';

export interface WebhookDeliveryView {
  id: string;
  event: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEvent[];
  created_at: string;
  /** The most recent deliveries, newest first: what an admin checks when a receiver is silent. */
  recent_deliveries: WebhookDeliveryView[];
}

type DeliveryRow = {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
};

export function webhookView(row: { id: string; url: string; events: string; createdAt: Date }, deliveries: DeliveryRow[]): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events.split(' ').filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e)),
    created_at: row.createdAt.toISOString(),
    recent_deliveries: deliveries.map((d) => ({
      id: d.id,
      event: d.event,
      status: d.status,
      attempts: d.attempts,
      last_error: d.lastError,
      created_at: d.createdAt.toISOString(),
      delivered_at: d.deliveredAt?.toISOString() ?? null,
      next_attempt_at: d.status === 'pending' || d.status === 'sending' ? d.nextAttemptAt.toISOString() : null,
    })),
  };
}
