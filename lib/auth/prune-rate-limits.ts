import { deleteInBatches } from '../db/delete-in-batches';
import { log } from '../log';

/**
 * The longest window of Better Auth's rate-limit rules Toolgate runs with (its password-reset
 * rule; sign-in is 10 s). A row whose last request is older can only be started afresh.
 */
export const RATE_LIMIT_LONGEST_WINDOW_MS = 60_000;

/**
 * Rate-limit rows past every window go. Better Auth deletes them only when some caller's window
 * starts again, so a stream of requests each under a new key (new addresses) on an instance
 * nobody signs in to would grow the table without end.
 */
export async function pruneRateLimits(options: { now?: number; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  const deleted = await deleteInBatches('RateLimit', 'lastRequest', (options.now ?? Date.now()) - RATE_LIMIT_LONGEST_WINDOW_MS, options);
  if (deleted > 0) log.info('rate-limit rows pruned', { rows: deleted });
  return deleted;
}
