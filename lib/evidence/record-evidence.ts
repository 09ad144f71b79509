import { env } from '../env';
import type { Tx } from '../db';
import { EvidenceWriter } from './evidence-writer';
import type { RawEvidenceStoreFactory } from './raw-evidence-store';
import type { EvidenceInput, RecordedEvidence } from './evidence-input';
import { notifyEvidenceObservers, setEvidenceQueueDepthReader } from './evidence-observers';
import { closeCounterReader } from '../history/counter-reader';

// What callers hand the writer and get back; defined apart so the writer's own modules need not
// import this entry point, which imports them.
export type { EvidenceInput, EvidenceIssue, RecordedEvidence } from './evidence-input';

let writer: EvidenceWriter | undefined;
let storeFactory: RawEvidenceStoreFactory | undefined;

/**
 * Chooses how plain records reach the database, before the first record is written (the
 * data-plane server moves SQLite writes to their own thread).
 */
export function setRawEvidenceStore(factory: RawEvidenceStoreFactory): void {
  if (writer) throw new Error('setRawEvidenceStore: the evidence writer is already running');
  storeFactory = factory;
}

/**
 * Appends one record to the tenant's chain, with a violation row per error, and resolves only
 * once it is committed (grouped with records arriving at the same time; see EvidenceWriter).
 * `within` runs inside the same transaction (consuming a single-use token, creating the pending
 * approval), so a decision and its side effects commit together or not at all. When the queue
 * is full it rejects at once with a 503 AppError.
 */
export function recordEvidence<T = undefined>(
  input: EvidenceInput,
  within?: (tx: Tx) => Promise<T>,
): Promise<RecordedEvidence & { extra: T }> {
  if (!writer) {
    const created = new EvidenceWriter({
      maxQueue: env().TOOLGATE_EVIDENCE_QUEUE_MAX,
      maxBatch: env().TOOLGATE_EVIDENCE_BATCH_MAX,
      storeFactory,
    });
    setEvidenceQueueDepthReader(() => created.pending);
    writer = created;
  }
  const queued = performance.now();
  return writer.write(input, within).then((recorded) => {
    notifyEvidenceObservers({ input, recorded, commitMs: performance.now() - queued, extra: recorded.extra });
    return recorded;
  });
}

/**
 * Closes the writer's own database connections, and the history reader's (shutdown, and tests
 * between databases). The closed writer is dropped: the next record opens a new one, with the
 * store chosen by then (the first start seeds the demo tenant before the server picks its store).
 */
export async function closeEvidenceWriter(): Promise<void> {
  const closing = writer;
  writer = undefined;
  await Promise.all([closing?.close(), closeCounterReader()]);
}
