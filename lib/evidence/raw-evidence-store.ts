import Database from 'better-sqlite3';
import type { DatabaseTarget } from '../db/database-url';
import { GENESIS_HASH } from './evidence-hash';
import { chainRecords, type EvidenceRecord, type LaneHead } from './chain-records';
import { EVIDENCE_COLUMNS, quoted, VIOLATION_COLUMNS } from './evidence-columns';
import type { EvidenceInput, RawEvidenceStore, RecordedEvidence } from './evidence-input';
import { PostgresEvidenceStore } from './pg-evidence-store';
import { storedRequestId } from './stored-request-id';
import { counterSql, HistoryLedger, toWindowSums, writeSteps, type StoredSums } from '../history/history-ledger';
import type { HistoryAdmission } from '../history/commit-counters';
import { rememberCommitted, type CommittedWindow } from '../history/window-cache';
import { sqliteRollupWriter } from '../rollups/write-rollups';
import { now } from '../clock/clock';

const SQLITE_COUNTERS = counterSql('sqlite');

type ViolationRow = Record<(typeof VIOLATION_COLUMNS)[number], unknown>;

/**
 * The evidence hot path in plain SQL: prepared statements on SQLite, a few round trips on
 * PostgreSQL (./pg-evidence-store.ts). Measured here, Prisma's client spent about 70% of the
 * CPU of a batched write, our own hashing 2%; bypassing it for this one table family is what
 * lets a small machine keep up with agents. Rows are written exactly as Prisma writes them (timestamps as
 * integer milliseconds, 0/1 booleans and the hashes as blobs on SQLite), so Prisma reads them back unchanged.
 */
export class SqliteEvidenceStore implements RawEvidenceStore {
  private readonly connection: Database.Database;
  private readonly statements;
  private readonly transaction: Database.Transaction<
    (inputs: EvidenceInput[]) => { recorded: (RecordedEvidence | null)[]; windows: CommittedWindow[] }
  >;
  private readonly writeRollups: ReturnType<typeof sqliteRollupWriter>;

  /** `onCommitted` hears each committed transaction's windows: this process's cache, or the writer thread's parent. */
  constructor(
    file: string,
    private readonly onCommitted: (windows: CommittedWindow[]) => void = rememberCommitted,
  ) {
    this.connection = new Database(file);
    // Never wait inside SQLite: a busy wait would block the event loop, and with it whatever
    // transaction holds the lock. Busy is retried asynchronously below instead.
    this.connection.pragma('busy_timeout = 0');
    // better-sqlite3 builds SQLite with WAL commits at synchronous=NORMAL, which survives a
    // process crash but not a power cut; an answered decision must survive both.
    this.connection.pragma('synchronous = FULL');
    this.statements = {
      ensureHead: this.connection.prepare(
        `INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash") VALUES (?, 0, 0, ?) ON CONFLICT ("tenantId", "lane") DO NOTHING`,
      ),
      head: this.connection.prepare(
        `SELECT "seq", "hash", (SELECT "key" FROM "TenantKey" k WHERE k."tenantId" = h."tenantId") AS "tenantKey" FROM "EvidenceChainHead" h WHERE "tenantId" = ? AND "lane" = 0`,
      ),
      addTenantKey: this.connection.prepare(`INSERT INTO "TenantKey" ("tenantId") VALUES (?) ON CONFLICT ("tenantId") DO NOTHING`),
      createdAtOf: this.connection.prepare(`SELECT "createdAt" FROM "Evidence" WHERE "tenantKey" = ? AND "seq" = ?`).pluck(),
      contractHashKey: this.connection.prepare(`SELECT "key" FROM "EvidenceContractHash" WHERE "hash" = ?`).pluck(),
      addContractHash: this.connection.prepare(`INSERT INTO "EvidenceContractHash" ("hash") VALUES (?) RETURNING "key"`).pluck(),
      evidence: this.connection.prepare(
        `INSERT INTO "Evidence" (${quoted(EVIDENCE_COLUMNS)}) VALUES (${EVIDENCE_COLUMNS.map(() => '?').join(', ')})`,
      ),
      violation: this.connection.prepare(
        `INSERT INTO "Violation" (${quoted(VIOLATION_COLUMNS)}) VALUES (${VIOLATION_COLUMNS.map(() => '?').join(', ')})`,
      ),
      updateHead: this.connection.prepare(`UPDATE "EvidenceChainHead" SET "seq" = ?, "hash" = ? WHERE "tenantId" = ? AND "lane" = 0`),
      counters: this.connection.prepare(SQLITE_COUNTERS.sums.sql),
      counterSteps: {
        put: this.connection.prepare(SQLITE_COUNTERS.put.sql),
        add: this.connection.prepare(SQLITE_COUNTERS.add.sql),
        carry: this.connection.prepare(SQLITE_COUNTERS.carry.sql),
      },
    };
    this.writeRollups = sqliteRollupWriter(this.connection);
    this.transaction = this.connection.transaction(this.write);
  }

  private readonly write = (all: EvidenceInput[]): { recorded: (RecordedEvidence | null)[]; windows: CommittedWindow[] } => {
    const admission = this.admitHistory(all);
    const admitted = admission?.admitted;
    const windows = admission?.windows ?? [];
    const inputs = admitted ? all.filter((_, i) => admitted[i]) : all;
    // One writer at a time (the write lock): one lane, 0, with consecutive seqs.
    const heads = new Map<string, LaneHead>();
    const tenants = [...new Set(inputs.map((i) => i.tenantId))];
    for (const tenantId of tenants) {
      this.statements.ensureHead.run(tenantId, GENESIS_HASH);
      let head = this.statements.head.get(tenantId) as { seq: number; hash: string; tenantKey: number | null };
      // A tenant's first evidence: its key is added here, in the transaction that writes it.
      if (head.tenantKey === null) {
        this.statements.addTenantKey.run(tenantId);
        head = this.statements.head.get(tenantId) as typeof head;
      }
      heads.set(tenantId, { lane: 0, seq: Number(head.seq), hash: head.hash, tenantKey: Number(head.tenantKey) });
    }
    // Never before the newest record of these chains: seq and createdAt grow together (time
    // filters find a moment as a seq, lib/evidence/seq-at.ts), also when the system clock steps back.
    let createdAt = now();
    for (const head of heads.values()) {
      if (head.seq === 0) continue;
      const newest = Number(this.statements.createdAtOf.get(head.tenantKey, head.seq));
      if (newest > createdAt.getTime()) createdAt = new Date(newest);
    }
    const { rows, violations } = chainRecords(inputs, heads, createdAt);
    const stamp = sqliteTimestamp(createdAt);
    // Values spread into the call, not passed as one array: better-sqlite3 reads an array's
    // elements through V8's generic keyed lookup, about 9% of this thread's instructions per
    // record under callgrind (bench/validate/writer-cpu.ts), where arguments are read directly.
    // Looked up in this transaction, not kept across them: a key added here is gone if it rolls back.
    const contractHashKeys = new Map<string, number>();
    const contractHashKey = (hex: string | null): number | null => {
      if (hex === null) return null;
      let key = contractHashKeys.get(hex);
      if (key === undefined) {
        const bytes = Buffer.from(hex, 'hex');
        key = Number(this.statements.contractHashKey.get(bytes) ?? this.statements.addContractHash.get(bytes));
        contractHashKeys.set(hex, key);
      }
      return key;
    };
    for (const row of rows) this.statements.evidence.run(...evidenceValues(row, stamp, contractHashKey(row.contractHash)));
    for (const v of violations)
      this.statements.violation.run(...VIOLATION_COLUMNS.map((c) => sqliteValue((v as unknown as ViolationRow)[c])));
    this.writeRollups(rows, violations);
    for (const tenantId of tenants) {
      const head = heads.get(tenantId) as LaneHead;
      this.statements.updateHead.run(head.seq, head.hash, tenantId);
    }
    const recorded = rows.map((r) => ({ id: r.id, seq: r.seq, hash: r.hash }));
    if (!admitted) return { recorded, windows };
    let next = 0;
    return { recorded: admitted.map((ok) => (ok ? (recorded[next++] as RecordedEvidence) : null)), windows };
  };

  /** What admitHistoryWith (lib/history/commit-counters.ts) does, synchronously; null when no input has a history. */
  private admitHistory(inputs: EvidenceInput[]): HistoryAdmission | null {
    if (!inputs.some((i) => i.history)) return null;
    const admitted: boolean[] = [];
    const windows: CommittedWindow[] = [];
    for (const tenantId of new Set(inputs.map((i) => i.tenantId))) {
      const mine = inputs.filter((i) => i.tenantId === tenantId);
      const ledger = new HistoryLedger();
      for (const key of HistoryLedger.keysOf(mine.map((i) => i.history))) {
        const sums = this.statements.counters.get(SQLITE_COUNTERS.sums.args([tenantId, key.series, key.scope, key.from]));
        ledger.load(key, toWindowSums(sums as StoredSums | undefined));
      }
      for (const input of mine) admitted[inputs.indexOf(input)] = ledger.admit(input.history);
      for (const window of ledger.windows()) windows.push({ tenantId, ...window });
      for (const w of ledger.writes())
        for (const { step, values } of writeSteps(tenantId, w)) this.statements.counterSteps[step].run(SQLITE_COUNTERS[step].args(values));
    }
    return { admitted, windows };
  }

  async commit(inputs: EvidenceInput[]): Promise<(RecordedEvidence | null)[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        // IMMEDIATE: take the write lock first, so the chain heads read are the ones we update.
        const { recorded, windows } = this.transaction.immediate(inputs);
        if (windows.length > 0) this.onCommitted(windows);
        return recorded;
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (!code.startsWith('SQLITE_BUSY') || attempt >= 200) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(25, 1 + attempt)));
      }
    }
  }

  async close(): Promise<void> {
    this.connection.close();
  }
}

function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return sqliteTimestamp(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** Milliseconds since the epoch, as every SQLite timestamp is stored (lib/db/adapter.ts). */
function sqliteTimestamp(date: Date): number {
  return date.getTime();
}

/**
 * An evidence row's values in EVIDENCE_COLUMNS order, as SQLite stores them, with the batch's
 * one timestamp and the key of the record's contract hash. Written out field by field: chainRecords makes every row in one
 * shape, so these are monomorphic reads (raw-evidence-store.test.ts checks the order).
 */
export function evidenceValues(row: EvidenceRecord, createdAt: number, contractHashKey: number | null): unknown[] {
  return [
    row.id,
    row.seq,
    row.lane ?? 0,
    Buffer.from(row.prevHash, 'hex'),
    Buffer.from(row.hash, 'hex'),
    createdAt,
    row.kind,
    storedRequestId(row),
    row.traceId,
    row.callId,
    row.w3cTraceparent,
    row.apiKeyId,
    row.actorUserId,
    row.tool,
    row.contractVersion,
    contractHashKey,
    Buffer.from(row.argsHash, 'hex'),
    row.idempotencyKey,
    row.arguments,
    row.decision,
    row.valid ? 1 : 0,
    row.errors,
    row.warnings,
    row.durationMs,
    row.policyId ?? null,
    row.policyVersion ?? null,
    row.policyRule ?? null,
    row.policy ?? null,
    row.shadowDiffers ? 1 : 0,
    row.executionMs ?? null,
    row.payload,
    row.payloadHash ?? null,
    row.details ?? null,
    row.mcpServer ?? null,
    row.duplicateKey ?? null,
    row.tenantKey,
  ];
}

// Every field of a record but the two stored by key has a column (a new field without one fails to compile here).
type Unstored = 'tenantId' | 'contractHash';
const everyFieldHasAColumn: [Exclude<keyof EvidenceRecord, (typeof EVIDENCE_COLUMNS)[number] | Unstored>] extends [never] ? true : false =
  true;
void everyFieldHasAColumn;

export type RawEvidenceStoreFactory = (target: DatabaseTarget) => RawEvidenceStore;

/** The default: statements on this thread (the data plane swaps in a writer thread, ./evidence-writer-thread.ts). */
export const createRawEvidenceStore: RawEvidenceStoreFactory = (target) =>
  target.provider === 'postgresql' ? new PostgresEvidenceStore(target.url) : new SqliteEvidenceStore(target.file as string);
