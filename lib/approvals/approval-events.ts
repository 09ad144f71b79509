import { EventEmitter } from 'node:events';

/**
 * In-process wake-ups for long polls: a decision taken on this instance wakes the agents
 * waiting on it at once, instead of at their next poll of the row. Decisions taken on other
 * instances are still seen by that poll (lib/approvals/wait-for-approval.ts), so this is only
 * a latency optimisation, never what correctness rests on.
 *
 * Kept on globalThis: under `npm start` the data plane (which serves the long poll) and Next
 * (which serves decisions) load their own copies of this module in one process.
 */
const holder = globalThis as unknown as { toolgateApprovalEvents?: EventEmitter };

function emitter(): EventEmitter {
  if (!holder.toolgateApprovalEvents) {
    const created = new EventEmitter();
    // One listener per watched approval (wait-for-approval.ts); the waits bound their number.
    created.setMaxListeners(0);
    holder.toolgateApprovalEvents = created;
  }
  return holder.toolgateApprovalEvents;
}

export function notifyApprovalChanged(id: string): void {
  emitter().emit(id);
}

/** Calls `listener` when the approval changes on this instance; returns the unsubscribe. */
export function onApprovalChanged(id: string, listener: () => void): () => void {
  const e = emitter();
  e.on(id, listener);
  return () => e.off(id, listener);
}

/** Forgets every in-process waiter: what a restarted instance starts with (tests). */
export function resetApprovalEventsForTests(): void {
  holder.toolgateApprovalEvents = undefined;
}
