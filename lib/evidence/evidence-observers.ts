import { log } from '../log';
import type { EvidenceInput, RecordedEvidence } from './evidence-input';

/** What observers (traces export, metrics) learn of each committed record. */
export interface CommittedEvidence {
  input: EvidenceInput;
  recorded: RecordedEvidence;
  /** From the write being queued to its commit, ms: the queue wait and the commit itself. */
  commitMs: number;
  /** What `within` returned (a pending approval, a redeemed token), when anything. */
  extra: unknown;
}

export type EvidenceObserver = (committed: CommittedEvidence) => void;

// One set per process, not per copy of lib/: Next builds its routes and instrumentation.ts as
// bundles of their own, each with its own copy, so an observer registered at start-up would
// otherwise never hear of records a route's copy commits. Observers skip records seen twice.
const OBSERVERS_KEY = Symbol.for('toolgate.evidenceObservers');
const observers: Set<EvidenceObserver> = ((globalThis as { [OBSERVERS_KEY]?: Set<EvidenceObserver> })[OBSERVERS_KEY] ??= new Set());

/**
 * Registers a function told of every record once it is committed. Observers run synchronously
 * after the commit and before the caller is answered, so they must only enqueue (a span, a
 * counter): a slow or throwing observer must never delay or fail a decision.
 */
export function observeEvidence(observer: EvidenceObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Queue depth of the evidence writer, read by the metrics without importing the writer. */
let queueDepthReader: (() => number) | null = null;
export function setEvidenceQueueDepthReader(reader: () => number): void {
  queueDepthReader = reader;
}
export function evidenceQueueDepth(): number {
  return queueDepthReader?.() ?? 0;
}

let warned = false;
export function notifyEvidenceObservers(committed: CommittedEvidence): void {
  for (const observer of observers) {
    try {
      observer(committed);
    } catch (error) {
      // Once per process: an observer failing per record would flood the log.
      if (!warned) {
        warned = true;
        log.warn('evidence observer failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
