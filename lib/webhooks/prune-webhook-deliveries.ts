import { db } from '../db';

/** How long a delivery that ended (delivered, or failed for good) is kept for Settings to show. */
export const SETTLED_DELIVERY_DAYS = 7;
/** Rows deleted per statement, so a first prune of a large outbox does not hold the database. */
const PRUNE_BATCH = 1000;

/**
 * Deletes deliveries that ended more than SETTLED_DELIVERY_DAYS ago, across tenants (the
 * instance's outbox housekeeping; safe on any number of instances at once). Their payloads
 * repeat what the approvals and evidence keep, and without this the outbox grew by a row per
 * event per receiver forever. A settled row's nextAttemptAt is within a lease of its last
 * attempt, so the (status, nextAttemptAt) index finds them. Returns how many were deleted.
 */
export async function pruneWebhookDeliveries(options: { now?: Date } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - SETTLED_DELIVERY_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const batch = await db().webhookDelivery.findMany({
      where: { status: { in: ['delivered', 'failed'] }, nextAttemptAt: { lt: cutoff } },
      select: { id: true },
      take: PRUNE_BATCH,
    });
    if (batch.length === 0) return deleted;
    const { count } = await db().webhookDelivery.deleteMany({ where: { id: { in: batch.map((row) => row.id) } } });
    deleted += count;
    if (batch.length < PRUNE_BATCH) return deleted;
  }
}
