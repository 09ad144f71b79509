import { db } from '../db';
import { onApprovalChanged } from './approval-events';

/** The longest `?wait=` a client may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 30;
/**
 * How often a waiting request reads the row. A decision on another instance is seen within
 * this; one on this instance wakes the wait at once (approval-events.ts). Each read is one
 * short indexed query, so no database connection is held while waiting.
 */
const POLL_MS = 400;

/**
 * Long polling: resolves when the approval is no longer pending (decided, or past its
 * deadline), when `waitMs` has passed, or when `signal` aborts (the client went away).
 * Resolves without a value: the caller reads the state afterwards, whatever ended the wait.
 */
export async function waitForApprovalChange(options: {
  tenantId: string;
  id: string;
  waitMs: number;
  signal?: AbortSignal;
}): Promise<void> {
  const deadline = Date.now() + Math.min(options.waitMs, MAX_WAIT_SECONDS * 1000);
  while (!options.signal?.aborted) {
    const row = await db().approval.findFirst({
      where: { id: options.id, tenantId: options.tenantId },
      select: { status: true, expiresAt: true },
    });
    const now = Date.now();
    if (!row || row.status !== 'pending' || row.expiresAt.getTime() <= now) return;
    const left = deadline - now;
    if (left <= 0) return;
    await pause(options.id, Math.min(POLL_MS, left, row.expiresAt.getTime() - now), options.signal);
  }
}

function pause(id: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    const unsubscribe = onApprovalChanged(id, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
