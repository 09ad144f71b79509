import { db } from '../db';
import { onApprovalChanged } from './approval-events';

/** The longest `?wait=` a client may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 30;
/**
 * How often a watched approval's row is read. A decision on another instance is seen within
 * this; one on this instance wakes the watch at once (approval-events.ts). Each read is one
 * short indexed query, so no database connection is held while waiting.
 */
const POLL_MS = 400;

type Waiter = { finish: (error?: unknown) => void };

/**
 * One watch per approval on this instance, however many requests wait on it: an agent
 * retrying its long poll, a gateway and a dashboard tab, or a caller opening a thousand waits
 * on one id all cost one read every POLL_MS, not one each.
 */
type Watch = { tenantId: string; id: string; waiters: Set<Waiter>; wake: () => void; polls: number };

/** On globalThis for the reason approval-events.ts gives: two copies of this module in one process. */
const holder = globalThis as unknown as { toolgateApprovalWatches?: Map<string, Watch>; toolgateApprovalWaitsEnded?: boolean };

function watches(): Map<string, Watch> {
  holder.toolgateApprovalWatches ??= new Map();
  return holder.toolgateApprovalWatches;
}

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/**
 * Long polling: resolves when the approval is no longer pending (decided, or past its
 * deadline), when `waitMs` has passed, or when `signal` aborts (the client went away).
 * Resolves without a value: the caller reads the state afterwards, whatever ended the wait.
 * Callers read the state before they wait; a change between that read and this call is seen
 * at the watch's next read, at most POLL_MS later.
 */
export function waitForApprovalChange(options: { tenantId: string; id: string; waitMs: number; signal?: AbortSignal }): Promise<void> {
  const { signal } = options;
  if (signal?.aborted || holder.toolgateApprovalWaitsEnded) return Promise.resolve();
  const ms = Math.max(0, Math.min(options.waitMs, MAX_WAIT_SECONDS * 1000));
  return new Promise<void>((resolve, reject) => {
    const key = keyOf(options.tenantId, options.id);
    let watch = watches().get(key);
    const started = !watch;
    if (!watch) {
      watch = { tenantId: options.tenantId, id: options.id, waiters: new Set(), wake: () => undefined, polls: 0 };
      watches().set(key, watch);
    }
    const owner = watch;
    const waiter: Waiter = {
      finish: (error) => {
        if (!owner.waiters.delete(waiter)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', leave);
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error(String(error)));
        // The last one out ends the watch's pause, so no read is made for nobody.
        if (owner.waiters.size === 0) owner.wake();
      },
    };
    const leave = () => waiter.finish();
    const timer = setTimeout(leave, ms);
    signal?.addEventListener('abort', leave, { once: true });
    watch.waiters.add(waiter);
    if (started) void run(watch, key);
  });
}

/** Reads the row until it is no longer pending or nobody waits; ends every wait it outlives. */
async function run(watch: Watch, key: string): Promise<void> {
  try {
    while (watch.waiters.size > 0) {
      watch.polls += 1;
      const row = await db().approval.findFirst({
        where: { id: watch.id, tenantId: watch.tenantId },
        select: { status: true, expiresAt: true },
      });
      const now = Date.now();
      if (!row || row.status !== 'pending' || row.expiresAt.getTime() <= now) break;
      if (watch.waiters.size === 0) break;
      await pause(watch, Math.min(POLL_MS, row.expiresAt.getTime() - now));
    }
    end(watch, key);
  } catch (error) {
    end(watch, key, error);
  }
}

/** Synchronous, so a request cannot join a watch between its last read and its removal. */
function end(watch: Watch, key: string, error?: unknown): void {
  if (watches().get(key) === watch) watches().delete(key);
  for (const waiter of [...watch.waiters]) waiter.finish(error);
}

function pause(watch: Watch, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      watch.wake = () => undefined;
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    const unsubscribe = onApprovalChanged(watch.id, done);
    watch.wake = done;
  });
}

/**
 * A stopping instance answers its long polls at once (the approval as it stands, with
 * `Connection: close`) and parks no new ones, so that agents poll again on another instance
 * instead of being cut off when this one exits.
 */
export function endApprovalWaits(): void {
  holder.toolgateApprovalWaitsEnded = true;
  for (const [key, watch] of watches()) end(watch, key);
}

/** Whether this instance has stopped parking long polls (it is stopping). */
export function approvalWaitsEnded(): boolean {
  return holder.toolgateApprovalWaitsEnded === true;
}

/** Parks long polls again: what a restarted instance starts with (tests). */
export function resetApprovalWaitsForTests(): void {
  holder.toolgateApprovalWaitsEnded = undefined;
}

/** How many requests on this instance are waiting on the approval (tests, diagnostics). */
export function waitingOnApproval(id: string): number {
  let n = 0;
  for (const watch of watches().values()) if (watch.id === id) n += watch.waiters.size;
  return n;
}

/** How many times this instance has read the approval for its current watch (tests, diagnostics). */
export function approvalWatchReads(tenantId: string, id: string): number {
  return watches().get(keyOf(tenantId, id))?.polls ?? 0;
}
