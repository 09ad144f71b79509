import { db } from '../db';
import { getInstanceSecret } from '../auth/instance-secret';
import { deriveWebhookSecret, signWebhookBody } from './webhook-signature';
import { retryDelayMs } from './retry-delay';
import { postWebhook } from './post-webhook';
import { env } from '../env';
import { countWebhookAttempt } from '../metrics/counters';

/** After this many failed attempts a delivery is `failed` and no longer retried. */
export const MAX_ATTEMPTS = 8;
/** One attempt's time limit; a receiver should answer 2xx quickly and work asynchronously. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * A claimed delivery is `sending` until this passes. An instance that dies mid-attempt leaves
 * the row claimed; after the lease any instance may take it again (at-least-once delivery;
 * receivers dedupe on the Toolgate-Delivery header). Longer than the attempt timeout, so a
 * live attempt is never taken over.
 */
const LEASE_MS = 60_000;
const MAX_ERROR_CHARS = 500;

export interface DeliveryRunResult {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Sends the webhook deliveries that are due, on whichever instance runs it: a row is first
 * claimed with a conditional update that only matches the state this instance read, so of
 * several instances exactly one sends it. Success is any 2xx; redirects are not followed (a
 * receiver must give its final URL), and the response body is not read.
 */
export async function deliverDueWebhooks(options: { now?: Date; limit?: number } = {}): Promise<DeliveryRunResult> {
  const now = options.now ?? new Date();
  const allowPrivate = env().TOOLGATE_WEBHOOK_ALLOW_PRIVATE;
  // Deliberately across tenants: this is the instance's outbox worker. Each row is then
  // claimed, sent and settled by its own id and tenant.
  const due = await db().webhookDelivery.findMany({
    where: { status: { in: ['pending', 'sending'] }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: 'asc' },
    take: options.limit ?? 20,
    select: {
      id: true,
      tenantId: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      payload: true,
      event: true,
      webhook: { select: { id: true, url: true } },
    },
  });
  const result: DeliveryRunResult = { claimed: 0, delivered: 0, retrying: 0, failed: 0 };
  if (due.length === 0) return result;
  const secret = await getInstanceSecret();

  await Promise.all(
    due.map(async (row) => {
      const attempt = row.attempts + 1;
      const claim = await db().webhookDelivery.updateMany({
        where: { id: row.id, tenantId: row.tenantId, status: row.status, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt },
        data: { status: 'sending', attempts: attempt, nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
      });
      if (claim.count !== 1) return; // another instance has it
      result.claimed++;

      let error: string | null = null;
      try {
        const status = await postWebhook(row.webhook.url, {
          allowPrivate,
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Toolgate-Webhooks/1',
            'toolgate-event': row.event,
            'toolgate-delivery': row.id,
            'toolgate-signature': signWebhookBody(deriveWebhookSecret(secret, row.webhook.id), row.payload),
          },
          body: row.payload,
        });
        if (status < 200 || status >= 300) error = `HTTP ${status}`;
      } catch (caught) {
        error = deliveryErrorText(caught);
      }

      const settledAt = new Date();
      // Settle only our own claim: if the lease ran out and another instance took the row,
      // its outcome wins.
      const mine = { id: row.id, tenantId: row.tenantId, status: 'sending', attempts: attempt };
      if (error === null) {
        await db().webhookDelivery.updateMany({ where: mine, data: { status: 'delivered', deliveredAt: settledAt, lastError: null } });
        result.delivered++;
      } else if (attempt >= MAX_ATTEMPTS) {
        await db().webhookDelivery.updateMany({ where: mine, data: { status: 'failed', lastError: error.slice(0, MAX_ERROR_CHARS) } });
        result.failed++;
      } else {
        await db().webhookDelivery.updateMany({
          where: mine,
          data: {
            status: 'pending',
            lastError: error.slice(0, MAX_ERROR_CHARS),
            nextAttemptAt: new Date(Math.max(settledAt.getTime(), now.getTime()) + retryDelayMs(attempt)),
          },
        });
        result.retrying++;
      }
      countWebhookAttempt(row.tenantId, error === null ? 'delivered' : attempt >= MAX_ATTEMPTS ? 'failed' : 'retrying');
    }),
  );
  return result;
}

/**
 * Why an attempt failed, as the tenant's admins read it (GET /webhooks, Settings, the overview).
 * Never what the instance's resolver answered: the address filter's refusal names the private
 * address a name resolved to, so registering names and reading the failures mapped the internal
 * network. Addresses are left out of every other error too.
 */
export function deliveryErrorText(caught: unknown): string {
  const text = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
  if (/is not allowed\. Because|private IP address|meta IP address/i.test(text)) return 'Refused: the receiver is not at a public address.';
  return text
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<address>')
    .replace(/\[?(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\]?|\[?[0-9a-f]{0,4}(?::[0-9a-f]{0,4})*::[0-9a-f:]*\]?/gi, '<address>');
}
