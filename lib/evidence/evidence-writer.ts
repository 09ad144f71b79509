import { db, dbProvider, type Tx } from '../db';
import { ensureTenantKey } from './tenant-key';
import { AppError } from '../errors';
import { countQueueFull, noteCommitFailed, noteCommitSucceeded } from './evidence-unavailable';
import { GENESIS_HASH } from './evidence-hash';
import { chainRecords, type EvidenceRecord, type LaneHead } from './chain-records';
import { allocateSeqs, takeLanes, type LaneQuery } from './evidence-lanes';
import { parseDatabaseUrl } from '../db/database-url';
import { createRawEvidenceStore, type RawEvidenceStoreFactory } from './raw-evidence-store';
import type { EvidenceInput, RawEvidenceStore, RecordedEvidence } from './evidence-input';
import { HistoryConflictError } from '../history/history-ledger';
import { committedWindows, loadHistoryLedgers, writeHistoryLedgers, type CounterQuery } from '../history/commit-counters';
import { rememberCommitted, type CommittedWindow } from '../history/window-cache';
import { now } from '../clock/clock';
import { writeRollups } from '../rollups/write-rollups';
import { isHexDigest } from './stored-hashes';
import { toStoredRecords } from './stored-record';
import { databaseFileProblem } from '../db/database-file';

interface Pending {
  input: EvidenceInput;
  within?: (tx: Tx) => Promise<unknown>;
  resolve: (value: RecordedEvidence & { extra: unknown }) => void;
  reject: (error: unknown) => void;
}

export interface EvidenceWriterOptions {
  /** Records accepted but not yet committed (queued or in flight); past it, callers get 503. */
  maxQueue: number;
  /** Records committed in one transaction at most. */
  maxBatch: number;
  /** Opens the plain-SQL store (default: statements on this thread). */
  storeFactory?: RawEvidenceStoreFactory;
}

/**
 * Group commit. Records that arrive while a batch is being committed wait and go together in
 * the next transaction, so the cost of a commit (and of Prisma's per-statement overhead) is
 * shared; each caller is answered only once its own record is committed. With SQLite there is
 * one writer per process; with PostgreSQL, instances commit side by side, each in a lane of the
 * tenant's evidence no other commit holds (./evidence-lanes.ts). A store that orders commits
 * itself (the SQLite writer thread) is handed each batch at once, without waiting for the one
 * before; batches with side effects (`within`, through Prisma) always wait until nothing else
 * is in flight, so the two paths never race on a chain head.
 */
export class EvidenceWriter {
  private queue: Pending[] = [];
  private flushing = false;
  private scheduled = false;
  private inFlight = new Set<Promise<void>>();
  private inFlightRecords = 0;
  private raw: { store: RawEvidenceStore; url: string | undefined } | undefined;

  constructor(private readonly options: EvidenceWriterOptions) {}

  get pending(): number {
    return this.queue.length + this.inFlightRecords;
  }

  write<T>(input: EvidenceInput, within?: (tx: Tx) => Promise<T>): Promise<RecordedEvidence & { extra: T }> {
    // Stored as bytes (stored-hashes.ts): anything but a hex digest would be stored as other
    // bytes than it was hashed as. Refused here, for this caller alone, not in its whole batch.
    if (!isHexDigest(input.argsHash) || (input.contractHash != null && !isHexDigest(input.contractHash)))
      return Promise.reject(new TypeError('evidence argsHash and contractHash must be lowercase hex digests'));
    if (this.pending >= this.options.maxQueue) {
      // Back-pressure, not collapse: refuse now rather than queue without bound.
      countQueueFull();
      return Promise.reject(
        new AppError(
          'unavailable',
          'Toolgate is at capacity and did not decide this call. Retry shortly.',
          { reason: 'evidence_queue_full' },
          { 'retry-after': '1' },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ input, within, resolve: resolve as Pending['resolve'], reject });
      this.schedule();
    });
  }

  /**
   * Flushes once this turn of the event loop has run its I/O callbacks, not now: every request
   * whose bytes arrived in the same turn (one per ready socket) then joins one batch, which
   * shares one hand-over to the writer thread and one fsync. A microtask would flush after
   * each socket's callback, one record at a time: measured, that cost the request thread about
   * 9 us per record in messages to and from the writer thread.
   */
  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private rawStore(): RawEvidenceStore {
    // Follows DATABASE_URL like db() does (tests point it elsewhere between files).
    const url = process.env.DATABASE_URL;
    if (!this.raw || this.raw.url !== url) {
      const previous = this.raw?.store;
      if (previous) void previous.close();
      this.raw = { store: (this.options.storeFactory ?? createRawEvidenceStore)(parseDatabaseUrl(url)), url };
    }
    return this.raw.store;
  }

  private async commitRaw(store: RawEvidenceStore, batch: Pending[]): Promise<void> {
    let recorded: (RecordedEvidence | null)[];
    try {
      recorded = await store.commit(batch.map((item) => item.input));
    } catch (error) {
      const failure = unavailable(error, batch.length);
      for (const item of batch) item.reject(failure);
      return;
    }
    noteCommitSucceeded();
    for (let i = 0; i < batch.length; i++) {
      const r = recorded[i];
      if (r) (batch[i] as Pending).resolve({ id: r.id, seq: r.seq, hash: r.hash, extra: undefined });
      else (batch[i] as Pending).reject(new HistoryConflictError());
    }
  }

  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  async close(): Promise<void> {
    await this.drain();
    await this.raw?.store.close();
    this.raw = undefined;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        const fileProblem = databaseFileProblem();
        if (fileProblem) {
          const failure = unavailable(new Error(fileProblem), batch.length);
          for (const item of batch) item.reject(failure);
          continue;
        }
        // Plain records take the raw SQL path; a batch with side effects to run in the same
        // transaction (tokens, approvals) goes through Prisma, alone.
        if (batch.some((item) => item.within)) {
          await this.drain();
          await commitBatch(batch);
          continue;
        }
        const store = this.rawStore();
        if (!store.pipelined) await this.drain();
        this.inFlightRecords += batch.length;
        const done = this.commitRaw(store, batch).finally(() => {
          this.inFlightRecords -= batch.length;
          this.inFlight.delete(done);
        });
        this.inFlight.add(done);
        if (!store.pipelined) await done;
      }
    } finally {
      this.flushing = false;
    }
  }
}

async function commitBatch(batch: Pending[]): Promise<void> {
  const provider = dbProvider();
  const outcomes = new Map<Pending, { ok: true; value: RecordedEvidence & { extra: unknown } } | { ok: false; error: unknown }>();
  let windows: CommittedWindow[] = [];
  try {
    await db().$transaction(
      async (tx) => {
        outcomes.clear();
        const accepted: { item: Pending; extra: unknown }[] = [];
        // A lane per tenant first (on SQLite the first write takes the write lock); history
        // counters are locked per series and scope on PostgreSQL (loadHistoryLedgers).
        const tenants = [...new Set(batch.map((item) => item.input.tenantId))].sort();
        const heads = await lockChainHeads(tx, tenants, provider);
        const query: CounterQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
        const counterProvider = provider === 'postgresql' ? 'postgresql' : 'sqlite';
        const ledgers = await loadHistoryLedgers(
          query,
          counterProvider,
          batch.map((item) => item.input),
        );
        for (const item of batch) {
          const { history, tenantId } = item.input;
          const ledger = ledgers?.get(tenantId);
          if (ledger && !ledger.holds(history)) {
            outcomes.set(item, { ok: false, error: new HistoryConflictError() });
            continue;
          }
          if (!item.within) {
            ledger?.count(history);
            accepted.push({ item, extra: undefined });
            continue;
          }
          // A savepoint per side effect: one call's refused token must not undo the batch. The
          // call is counted only once its side effects hold: a redemption refused as already
          // used is decided again as a deny, which must not have counted as an allowed call.
          await tx.$executeRawUnsafe('SAVEPOINT tg_evidence_item');
          try {
            const extra = await item.within(tx);
            await tx.$executeRawUnsafe('RELEASE SAVEPOINT tg_evidence_item');
            ledger?.count(history);
            accepted.push({ item, extra });
          } catch (error) {
            await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT tg_evidence_item');
            await tx.$executeRawUnsafe('RELEASE SAVEPOINT tg_evidence_item');
            outcomes.set(item, { ok: false, error });
          }
        }
        if (ledgers) {
          await writeHistoryLedgers(query, counterProvider, ledgers);
          windows = committedWindows(ledgers);
        }
        if (accepted.length === 0) return;
        if (provider === 'postgresql') {
          const counts = new Map<string, number>();
          for (const { item } of accepted) counts.set(item.input.tenantId, (counts.get(item.input.tenantId) ?? 0) + 1);
          await allocateSeqs((sql, params) => db().$queryRawUnsafe(sql, ...params), heads, counts, now());
        }
        const { rows: evidenceRows, violations: violationRows } = chainRecords(
          accepted.map((a) => a.item.input),
          heads,
          now(),
        );
        accepted.forEach(({ item, extra }, i) => {
          const row = evidenceRows[i] as EvidenceRecord;
          outcomes.set(item, { ok: true, value: { id: row.id, seq: row.seq, hash: row.hash, extra } });
        });
        await tx.evidence.createMany({ data: await toStoredRecords(evidenceRows, tx) });
        if (violationRows.length > 0) await tx.violation.createMany({ data: violationRows });
        await writeRollups((sql, params) => tx.$executeRawUnsafe(sql, ...params), counterProvider, evidenceRows, violationRows);
        for (const tenantId of new Set(accepted.map((a) => a.item.input.tenantId))) {
          const head = heads.get(tenantId) as LaneHead;
          await tx.evidenceChainHead.update({
            where: { tenantId_lane: { tenantId, lane: head.lane } },
            data: { seq: head.seq, hash: head.hash },
          });
        }
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (error) {
    // Nothing in the batch was committed: every caller answers 503, never a decision.
    const failure = unavailable(error, batch.length);
    for (const item of batch) item.reject(failure);
    return;
  }
  noteCommitSucceeded();
  rememberCommitted(windows);
  for (const item of batch) {
    const outcome = outcomes.get(item);
    if (outcome?.ok) item.resolve(outcome.value);
    else item.reject(outcome ? outcome.error : new Error('evidence record was not written'));
  }
}

async function lockChainHeads(tx: Tx, tenants: string[], provider: string): Promise<Map<string, LaneHead>> {
  if (provider === 'postgresql') {
    // Lanes are added outside the transaction (they must be visible before a record is in one).
    const outside: LaneQuery = (sql, params) => db().$queryRawUnsafe(sql, ...params);
    return takeLanes((sql, params) => tx.$queryRawUnsafe(sql, ...params), outside, tenants);
  }
  // SQLite's one lane. A write first: it takes the write lock before the heads are read.
  for (const tenantId of tenants) {
    await tx.$executeRaw`INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash") VALUES (${tenantId}, 0, 0, ${GENESIS_HASH}) ON CONFLICT ("tenantId", "lane") DO NOTHING`;
  }
  const rows = await tx.evidenceChainHead.findMany({ where: { tenantId: { in: tenants }, lane: 0 } });
  const keys = new Map((await tx.tenantKey.findMany({ where: { tenantId: { in: tenants } } })).map((k) => [k.tenantId, k.key]));
  // A tenant's first evidence: its key is added in the transaction that writes it.
  for (const tenantId of tenants.filter((t) => !keys.has(t))) keys.set(tenantId, await ensureTenantKey(tenantId, tx));
  const heads = new Map<string, LaneHead>();
  for (const r of rows) {
    const head: LaneHead = { lane: 0, seq: Number(r.seq), hash: r.hash, tenantKey: keys.get(r.tenantId) };
    // Never before the chain's newest record, as the SQLite store does (raw-evidence-store.ts).
    const newest =
      head.seq > 0 && head.tenantKey !== undefined
        ? await tx.evidence.findFirst({ where: { tenantKey: head.tenantKey, seq: head.seq }, select: { createdAt: true } })
        : null;
    if (newest && newest.createdAt.getTime() > now().getTime()) head.createdAt = newest.createdAt;
    heads.set(r.tenantId, head);
  }
  return heads;
}

/** Whatever made the commit fail (database down, disk full, a trigger), the answer is 503. */
function unavailable(cause: unknown, calls: number): AppError {
  noteCommitFailed(cause, calls);
  return new AppError(
    'unavailable',
    'Toolgate could not record this decision, so it did not make one. Retry shortly.',
    { reason: 'evidence_unavailable' },
    { 'retry-after': '2' },
  );
}
