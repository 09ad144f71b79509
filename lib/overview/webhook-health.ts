import { db } from '../db';
import { num, sql, toDate } from '../db/sql';
import { OVERVIEW_WINDOW_MS, type FailingWebhookEndpoint, type WebhookHealth } from './overview-types';

/** How many failing endpoints the overview names; a tenant has at most 10 webhooks. */
const FAILING_SHOWN = 10;

type Tally = { delivered: number; failed: number; retrying: number; waiting: number; lastDelivered: number; lastFailure: number };

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 80);
  }
};

/**
 * Webhook delivery at a glance: the last 24 hours of deliveries by outcome (one range read on
 * (tenantId, createdAt), grouped in the database), the oldest delivery still to be made, and the
 * endpoints whose latest attempt failed.
 */
export async function getWebhookHealth(options: { tenantId: string; until: Date }): Promise<WebhookHealth> {
  const { tenantId, until } = options;
  const since = new Date(until.getTime() - OVERVIEW_WINDOW_MS);
  const [webhooks, groups, outbox] = await Promise.all([
    db().webhook.findMany({ where: { tenantId }, select: { id: true, url: true, disabledAt: true } }),
    db().$queryRaw<
      Record<string, unknown>[]
    >(sql`SELECT "webhookId", "status", CASE WHEN "lastError" IS NULL THEN 0 ELSE 1 END AS "errored",
        count(*) AS "n", max("createdAt") AS "latest"
      FROM "WebhookDelivery" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${since} AND "createdAt" < ${until}
      GROUP BY "webhookId", "status", 3`),
    // The outbox of every tenant is small (a delivery is settled within about 21 minutes of
    // its first attempt), so it is read on (status, nextAttemptAt). The concatenation keeps
    // SQLite, which has no statistics, off the tenant's (tenantId, createdAt) index: on it,
    // finding the oldest pending row walks every delivery the tenant ever had.
    db().$queryRaw<Record<string, unknown>[]>(sql`SELECT min("createdAt") AS "oldest" FROM "WebhookDelivery"
      WHERE "status" IN ('pending', 'sending') AND "tenantId" || '' = ${tenantId}`),
  ]);

  const tallies = new Map<string, Tally>();
  const total: Tally = { delivered: 0, failed: 0, retrying: 0, waiting: 0, lastDelivered: 0, lastFailure: 0 };
  for (const row of groups) {
    const id = String(row.webhookId);
    const tally = tallies.get(id) ?? { delivered: 0, failed: 0, retrying: 0, waiting: 0, lastDelivered: 0, lastFailure: 0 };
    tallies.set(id, tally);
    const n = num(row.n);
    const latest = toDate(row.latest).getTime();
    if (row.status === 'delivered') {
      tally.delivered += n;
      tally.lastDelivered = Math.max(tally.lastDelivered, latest);
    } else if (row.status === 'failed') {
      tally.failed += n;
      tally.lastFailure = Math.max(tally.lastFailure, latest);
    } else if (num(row.errored) === 1) {
      // Pending again (or being sent again) after a failed attempt.
      tally.retrying += n;
      tally.lastFailure = Math.max(tally.lastFailure, latest);
    } else tally.waiting += n;
  }
  for (const tally of tallies.values()) {
    total.delivered += tally.delivered;
    total.failed += tally.failed;
    total.retrying += tally.retrying;
    total.waiting += tally.waiting;
  }

  const urls = new Map(webhooks.map((w) => [w.id, w.url]));
  const failing = [...tallies.entries()]
    .filter(([, t]) => t.lastFailure > t.lastDelivered)
    .sort(([, a], [, b]) => b.failed + b.retrying - (a.failed + a.retrying) || b.lastFailure - a.lastFailure)
    .slice(0, FAILING_SHOWN);
  const failingEndpoints: FailingWebhookEndpoint[] = await Promise.all(
    failing.map(async ([id, t]) => {
      const last = await db().webhookDelivery.findFirst({
        where: { tenantId, webhookId: id, createdAt: { gte: since, lt: until }, lastError: { not: null } },
        orderBy: { createdAt: 'desc' },
        select: { lastError: true },
      });
      return {
        id,
        host: host(urls.get(id) ?? ''),
        failed: t.failed,
        retrying: t.retrying,
        last_error: last?.lastError ?? null,
        last_failure_at: new Date(t.lastFailure).toISOString(),
      };
    }),
  );
  const oldest = outbox[0]?.oldest;
  return {
    endpoints: webhooks.filter((w) => w.disabledAt === null).length,
    since: since.toISOString(),
    delivered: total.delivered,
    failed: total.failed,
    retrying: total.retrying,
    waiting: total.waiting,
    oldest_pending_at: oldest === null || oldest === undefined ? null : toDate(oldest).toISOString(),
    failing_endpoints: failingEndpoints,
  };
}
