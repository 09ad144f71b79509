import { log } from '../log';

/**
 * Calls answered 503 because their evidence could not be written, and the log of why. The
 * reasons are the `details.reason` of those answers: `evidence_unavailable` (the database did not
 * commit the batch: down, disk full, locked past its timeout) and `evidence_queue_full` (more
 * records waiting than TOOLGATE_EVIDENCE_QUEUE_MAX). Either way nothing was decided, so no
 * decision is counted: this is the operator's count of calls Toolgate could not answer.
 */
export type EvidenceUnavailableReason = 'evidence_unavailable' | 'evidence_queue_full';

/** A failing commit is logged at once, then at most this often while it keeps failing. */
export const COMMIT_FAILURE_LOG_INTERVAL_MS = 10_000;

interface UnavailableState {
  calls: Record<EvidenceUnavailableReason, number>;
  /** Calls refused since the last line was logged, and when that was (0: none yet). */
  unlogged: number;
  loggedAt: number;
  failing: boolean;
}

// Process-wide, like the metrics' tallies: each copy of lib/ (Next's bundle, the server) has
// its own evidence writer, and one scrape and one log must cover both.
const KEY = Symbol.for('toolgate.evidenceUnavailable');
const state: UnavailableState = ((globalThis as { [KEY]?: UnavailableState })[KEY] ??= {
  calls: { evidence_unavailable: 0, evidence_queue_full: 0 },
  unlogged: 0,
  loggedAt: 0,
  failing: false,
});

export function evidenceUnavailableCounts(): Readonly<Record<EvidenceUnavailableReason, number>> {
  return state.calls;
}

export function countQueueFull(): void {
  state.calls.evidence_queue_full++;
}

/**
 * A batch of `calls` the database did not commit. Logged at once and then at most every 10 s
 * with how many calls were refused meanwhile: a full disk under load logged a line per batch,
 * about 1,800 lines in two seconds. Returns whether a line was logged.
 */
export function noteCommitFailed(cause: unknown, calls: number, nowMs = Date.now()): boolean {
  state.calls.evidence_unavailable += calls;
  state.failing = true;
  state.unlogged += calls;
  if (state.loggedAt !== 0 && nowMs - state.loggedAt < COMMIT_FAILURE_LOG_INTERVAL_MS) return false;
  log.error('evidence commit failed', {
    error: String((cause as Error)?.message ?? cause).slice(0, 300),
    calls_refused_since_last_line: state.unlogged,
  });
  state.loggedAt = nowMs;
  state.unlogged = 0;
  return true;
}

/** A commit went through: after failures, one line says so (and how many were not logged). */
export function noteCommitSucceeded(): void {
  if (!state.failing) return;
  log.info('evidence commits succeed again', { calls_refused_since_last_line: state.unlogged });
  state.failing = false;
  state.unlogged = 0;
  state.loggedAt = 0;
}

export function resetEvidenceUnavailableForTests(): void {
  state.calls.evidence_unavailable = 0;
  state.calls.evidence_queue_full = 0;
  state.unlogged = 0;
  state.loggedAt = 0;
  state.failing = false;
}
