import { db } from '../db';
import { getInstanceSecret } from '../auth/instance-secret';
import { deriveWebhookSecret, signWebhookBody } from './webhook-signature';
import { retryDelayMs } from './retry-delay';
import { postWebhook } from './post-webhook';
import { env } from '../env';
import { countWebhookAttempt } from '../metrics/counters';
import { log } from '../log';

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

/** Deliveries one dispatcher has in flight at once, across tenants. */
export const MAX_IN_FLIGHT = 20;
/**
 * Of those, at most this many for one tenant: a tenant whose receiver hangs (each attempt its
 * full ATTEMPT_TIMEOUT_MS) or who queued thousands of events holds a few slots, and every other
 * tenant's deliveries are still sent within a tick.
 */
export const MAX_IN_FLIGHT_PER_TENANT = 5;

type DueRow = {
  id: string;
  tenantId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  payload: string;
  event: string;
  webhook: { id: string; url: string };
};
type Outcome = 'delivered' | 'retrying' | 'failed';

/**
 * The deliveries that are due, fairly across tenants: each tenant's in the order they fell due,
 * taken round-robin (every tenant's first, then every tenant's second, …), at most `perTenant`
 * of a tenant less what it already has in flight (`busy`). Oldest-first alone gave the whole
 * batch to whichever tenant had the longest backlog.
 */
async function findDue(now: Date, limit: number, perTenant: number, busy: ReadonlyMap<string, number>): Promise<DueRow[]> {
  // Deliberately across tenants: this is the instance's outbox worker. Each row is then
  // claimed, sent and settled by its own id and tenant. The scan is of due rows only, which the
  // per-webhook bound on queued deliveries (enqueue-webhook-event.ts) keeps bounded.
  const ranked = await db().$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT "id", "tenantId" FROM (
      SELECT d."id", d."tenantId", d."nextAttemptAt",
        ROW_NUMBER() OVER (PARTITION BY d."tenantId" ORDER BY d."nextAttemptAt", d."id") AS "turn"
      FROM "WebhookDelivery" d
      WHERE d."status" IN ('pending', 'sending') AND d."nextAttemptAt" <= ${now}
    ) ranked
    WHERE "turn" <= ${perTenant}
    ORDER BY "turn", "nextAttemptAt", "id"
    LIMIT ${limit + busy.size * perTenant}`;
  const taken = new Map(busy);
  const ids: string[] = [];
  for (const row of ranked) {
    const count = taken.get(row.tenantId) ?? 0;
    if (count >= perTenant || ids.length >= limit) continue;
    taken.set(row.tenantId, count + 1);
    ids.push(row.id);
  }
  if (ids.length === 0) return [];
  // Read with the same condition as the ranking: a row another instance settled in between is
  // no longer due, and claiming it on the state read here would send it again.
  const rows = await db().webhookDelivery.findMany({
    where: { id: { in: ids }, status: { in: ['pending', 'sending'] }, nextAttemptAt: { lte: now } },
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
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * Claims a due row with a conditional update that only matches the state this instance read,
 * so of several instances exactly one sends it, then sends and settles it. Success is any 2xx;
 * redirects are not followed (a receiver must give its final URL), and the response body is
 * not read. Null when another instance claimed it first.
 */
async function claimAndSend(row: DueRow, now: Date, secret: string, allowPrivate: boolean): Promise<Outcome | null> {
  const attempt = row.attempts + 1;
  const claim = await db().webhookDelivery.updateMany({
    where: { id: row.id, tenantId: row.tenantId, status: row.status, attempts: row.attempts, nextAttemptAt: row.nextAttemptAt },
    data: { status: 'sending', attempts: attempt, nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
  });
  if (claim.count !== 1) return null; // another instance has it

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
  let outcome: Outcome;
  if (error === null) {
    await db().webhookDelivery.updateMany({ where: mine, data: { status: 'delivered', deliveredAt: settledAt, lastError: null } });
    outcome = 'delivered';
  } else if (attempt >= MAX_ATTEMPTS) {
    await db().webhookDelivery.updateMany({ where: mine, data: { status: 'failed', lastError: error.slice(0, MAX_ERROR_CHARS) } });
    outcome = 'failed';
  } else {
    await db().webhookDelivery.updateMany({
      where: mine,
      data: {
        status: 'pending',
        lastError: error.slice(0, MAX_ERROR_CHARS),
        nextAttemptAt: new Date(Math.max(settledAt.getTime(), now.getTime()) + retryDelayMs(attempt)),
      },
    });
    outcome = 'retrying';
  }
  countWebhookAttempt(row.tenantId, outcome);
  return outcome;
}

/** Starts claiming and sending `due`, one promise per row (null: another instance claimed it). */
async function startDeliveries(due: readonly DueRow[], now: Date): Promise<Promise<Outcome | null>[]> {
  if (due.length === 0) return [];
  const secret = await getInstanceSecret();
  const allowPrivate = env().TOOLGATE_WEBHOOK_ALLOW_PRIVATE;
  return due.map((row) => claimAndSend(row, now, secret, allowPrivate));
}

/**
 * Sends the deliveries that are due now (at most `limit`, `perTenant` of a tenant) and waits
 * for all of them: one pass of the dispatcher, as tests and scripts drive it.
 */
export async function deliverDueWebhooks(options: { now?: Date; limit?: number; perTenant?: number } = {}): Promise<DeliveryRunResult> {
  const now = options.now ?? new Date();
  const due = await findDue(now, options.limit ?? MAX_IN_FLIGHT, options.perTenant ?? MAX_IN_FLIGHT_PER_TENANT, new Map());
  const result: DeliveryRunResult = { claimed: 0, delivered: 0, retrying: 0, failed: 0 };
  for (const outcome of await Promise.all(await startDeliveries(due, now))) {
    if (outcome === null) continue;
    result.claimed++;
    result[outcome]++;
  }
  return result;
}

/**
 * The background dispatcher: each tick starts the due deliveries there is room for and returns
 * without waiting for them, so a receiver that takes its whole timeout holds its own slot, not
 * every other delivery's turn (a pass that waited for its slowest attempt sent nothing else for
 * ten seconds). `stop` waits for the deliveries in flight.
 */
export function createWebhookDispatcher(options: { maxInFlight?: number; perTenant?: number } = {}) {
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  const perTenant = options.perTenant ?? MAX_IN_FLIGHT_PER_TENANT;
  const inFlight = new Map<string, { tenantId: string; done: Promise<unknown> }>();
  return {
    inFlight: () => inFlight.size,
    async tick(now = new Date()): Promise<number> {
      const room = maxInFlight - inFlight.size;
      if (room <= 0) return 0;
      const busy = new Map<string, number>();
      for (const { tenantId } of inFlight.values()) busy.set(tenantId, (busy.get(tenantId) ?? 0) + 1);
      const due = (await findDue(now, room, perTenant, busy)).filter((row) => !inFlight.has(row.id));
      const sends = await startDeliveries(due, now);
      for (const [i, row] of due.entries()) {
        const done = (sends[i] as Promise<Outcome | null>)
          .catch((error: unknown) =>
            log.error('webhook delivery failed to settle', {
              delivery: row.id,
              error: error instanceof Error ? error.message : String(error),
            }),
          )
          .finally(() => inFlight.delete(row.id));
        inFlight.set(row.id, { tenantId: row.tenantId, done });
      }
      return due.length;
    },
    async stop(): Promise<void> {
      await Promise.all([...inFlight.values()].map((entry) => entry.done));
    },
  };
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
