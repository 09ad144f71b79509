import { db, dbProvider } from '../db';
import { log } from '../log';

/**
 * The longest window of Better Auth's rate-limit rules Toolgate runs with (its password-reset
 * rule; sign-in is 10 s). A row whose last request is older can only be started afresh.
 */
export const RATE_LIMIT_LONGEST_WINDOW_MS = 60_000;

/**
 * Rate-limit rows past every window go. Better Auth deletes them only when some caller's window
 * starts again, so a stream of requests each under a new key (a new path under /api/auth/, or new
 * addresses) on an instance nobody signs in to would grow the table without end. In batches, so a
 * run never holds SQLite's write lock for long; safe on any number of instances at once.
 */
export async function pruneRateLimits(options: { now?: number; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  const cutoff = (options.now ?? Date.now()) - RATE_LIMIT_LONGEST_WINDOW_MS;
  const batchSize = options.batchSize ?? 5_000;
  const rowId = dbProvider() === 'postgresql' ? 'ctid' : 'rowid';
  const param = dbProvider() === 'postgresql' ? '$1' : '?';
  let deleted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 200); batch++) {
    const count = await db().$executeRawUnsafe(
      `DELETE FROM "RateLimit" WHERE ${rowId} IN (SELECT ${rowId} FROM "RateLimit" WHERE "lastRequest" < ${param} LIMIT ${batchSize})`,
      cutoff,
    );
    deleted += count;
    if (count < batchSize) break;
  }
  if (deleted > 0) log.info('rate-limit rows pruned', { rows: deleted });
  return deleted;
}
