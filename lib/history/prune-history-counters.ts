import { deleteInBatches } from '../db/delete-in-batches';
import { log } from '../log';
import { MAX_WINDOW_SECONDS } from './history-terms';

/**
 * Counter rows older than the longest window (31 days) can never be read again; they go in
 * small batches so a run never holds the write lock for long. Safe on any number of instances
 * at once. Returns how many rows went.
 */
export async function pruneHistoryCounters(options: { now?: Date; batchSize?: number; maxBatches?: number } = {}): Promise<number> {
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  // A day's margin past the longest window, for its oldest bucket.
  const cutoff = nowSeconds - MAX_WINDOW_SECONDS - 86_400;
  const deleted = await deleteInBatches('HistoryCounter', 'bucket', cutoff, options);
  if (deleted > 0) log.info('history counters pruned', { rows: deleted, older_than: new Date(cutoff * 1000).toISOString() });
  return deleted;
}
