import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../db/database-url';
import { log } from '../log';
import { GENESIS_HASH } from './evidence-hash';
import { chainRecords, type EvidenceRecord, type LaneHead } from './chain-records';
import { allocateSeqs, laneHeadUpdate, takeLanes, UPDATE_LANE_HEADS, type LaneQuery } from './evidence-lanes';
import type { EvidenceInput, RecordedEvidence } from './evidence-input';
import { counterSql, HistoryLedger, toWindowSums, writeSteps, type StoredSums } from '../history/history-ledger';
import { admitHistoryWith, type HistoryAdmission } from '../history/commit-counters';
import { rememberCommitted, type CommittedWindow } from '../history/window-cache';
import { sqliteRollupWriter, writeRollups } from '../rollups/write-rollups';

const SQLITE_COUNTERS = counterSql('sqlite');
import { now } from '../clock/clock';

/**
 * The evidence hot path in plain SQL: prepared statements on SQLite, a few round trips on
 * PostgreSQL. Measured here, Prisma's client spent about 70% of the CPU of a batched write,
 * our own hashing 2%; bypassing it for this one table family is what lets a small machine keep
 * up with agents. Rows are written exactly as Prisma writes them (ISO-8601 text timestamps
 * and 0/1 booleans on SQLite), so Prisma reads them back unchanged.
 */
export interface RawEvidenceStore {
  /** Per input, its record; null for one refused because its history claims or reads no longer held. */
  commit(inputs: EvidenceInput[]): Promise<(RecordedEvidence | null)[]>;
  /** Takes a new batch while earlier ones are still committing, and commits them in order. */
  readonly pipelined?: boolean;
  close(): Promise<void>;
}

export const EVIDENCE_COLUMNS = [
  'id',
  'tenantId',
  'seq',
  'lane',
  'prevHash',
  'hash',
  'createdAt',
  'kind',
  'requestId',
  'traceId',
  'callId',
  'w3cTraceparent',
  'apiKeyId',
  'actorUserId',
  'tool',
  'contractVersion',
  'contractHash',
  'argsHash',
  'idempotencyKey',
  'arguments',
  'decision',
  'valid',
  'errors',
  'warnings',
  'durationMs',
  'policyId',
  'policyVersion',
  'policyRule',
  'policy',
  'shadowDiffers',
  'executionMs',
  'payload',
  'payloadHash',
  'details',
  'mcpServer',
  'duplicateKey',
] as const;
const VIOLATION_COLUMNS = ['id', 'tenantId', 'evidenceId', 'code', 'type', 'tool', 'apiKeyId', 'path', 'decision', 'createdAt'] as const;

type Row = Record<(typeof EVIDENCE_COLUMNS)[number], unknown>;
type ViolationRow = Record<(typeof VIOLATION_COLUMNS)[number], unknown>;

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

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
      head: this.connection.prepare(`SELECT "seq", "hash" FROM "EvidenceChainHead" WHERE "tenantId" = ? AND "lane" = 0`),
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
      const head = this.statements.head.get(tenantId) as { seq: number; hash: string };
      heads.set(tenantId, { lane: 0, seq: Number(head.seq), hash: head.hash });
    }
    const createdAt = now();
    const { rows, violations } = chainRecords(inputs, heads, createdAt);
    // One timestamp per batch: its text is made once, not per row (toISOString showed up in
    // the writer thread's instruction counts at about 3% per call).
    const createdAtText = sqliteTimestamp(createdAt);
    for (const row of rows) this.statements.evidence.run(evidenceValues(row, createdAtText));
    for (const v of violations) this.statements.violation.run(VIOLATION_COLUMNS.map((c) => sqliteValue((v as unknown as ViolationRow)[c])));
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

function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

/**
 * An evidence row's values in EVIDENCE_COLUMNS order, as SQLite stores them, with the batch's
 * timestamp text made once. Written out field by field: chainRecords makes every row in one
 * shape, so these are monomorphic reads (raw-evidence-store.test.ts checks the order).
 */
export function evidenceValues(row: EvidenceRecord, createdAt: string): unknown[] {
  return [
    row.id,
    row.tenantId,
    row.seq,
    row.lane ?? 0,
    row.prevHash,
    row.hash,
    createdAt,
    row.kind,
    row.requestId,
    row.traceId,
    row.callId,
    row.w3cTraceparent,
    row.apiKeyId,
    row.actorUserId,
    row.tool,
    row.contractVersion,
    row.contractHash,
    row.argsHash,
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
  ];
}

// Every field of a record has a column (a new field without one fails to compile here).
const everyFieldHasAColumn: [Exclude<keyof EvidenceRecord, (typeof EVIDENCE_COLUMNS)[number]>] extends [never] ? true : false = true;
void everyFieldHasAColumn;

class PostgresEvidenceStore implements RawEvidenceStore {
  private readonly pool: pg.Pool;
  /** Lanes added and seqs handed out, each committed at once (lib/evidence/evidence-lanes.ts). */
  private readonly autocommitPool: pg.Pool;
  constructor(url: string) {
    // One commit at a time per instance (EvidenceWriter waits for it): what arrives meanwhile makes
    // the next batch bigger. Measured with three in flight (each in a lane of its own), the
    // smaller batches cost more CPU per record in round trips than the overlap gained, on two cores.
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    // A lane or seq whose commit is lost in a crash was used by no committed record: a record's
    // own (synchronous) commit flushes the log up to it, these statements' with it.
    this.autocommitPool = new pg.Pool({ connectionString: url, max: 1, options: '-c synchronous_commit=off' });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next commit.
    for (const pool of [this.pool, this.autocommitPool])
      pool.on('error', (error) => log.warn('evidence pool connection lost', { error: error.message }));
  }

  async commit(all: EvidenceInput[]): Promise<(RecordedEvidence | null)[]> {
    const client = await this.pool.connect();
    const tx: LaneQuery = async (sql, params) => (await client.query(sql, params)).rows;
    const autocommit: LaneQuery = async (sql, params) => (await this.autocommitPool.query(sql, params)).rows;
    try {
      await client.query('BEGIN');
      const tenants = [...new Set(all.map((i) => i.tenantId))];
      const heads = await takeLanes(tx, autocommit, tenants);
      // History counters are locked per series and scope (admitHistoryWith), not per tenant.
      const admission = await admitHistoryPg(client, all);
      const admitted = admission?.admitted ?? null;
      const inputs = admitted ? all.filter((_, i) => admitted[i]) : all;
      const counts = new Map<string, number>();
      for (const input of inputs) counts.set(input.tenantId, (counts.get(input.tenantId) ?? 0) + 1);
      await allocateSeqs(autocommit, heads, counts, now());
      const { rows, violations } = chainRecords(inputs, heads, now());
      await insertMany(client, 'Evidence', EVIDENCE_COLUMNS, rows as unknown as Row[]);
      if (violations.length > 0) await insertMany(client, 'Violation', VIOLATION_COLUMNS, violations as unknown as ViolationRow[]);
      await writeRollups((sql, params) => client.query(sql, params), 'postgresql', rows, violations);
      if (counts.size > 0) await client.query(UPDATE_LANE_HEADS, laneHeadUpdate(heads, counts.keys()));
      await client.query('COMMIT');
      if (admission) rememberCommitted(admission.windows);
      const recorded = rows.map((r) => ({ id: r.id, seq: r.seq, hash: r.hash }));
      if (!admitted) return recorded;
      let next = 0;
      return admitted.map((ok) => (ok ? (recorded[next++] as RecordedEvidence) : null));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.autocommitPool.end();
  }
}

function admitHistoryPg(client: pg.PoolClient, inputs: readonly EvidenceInput[]): Promise<HistoryAdmission | null> {
  return admitHistoryWith(async (sql, params) => (await client.query(sql, params)).rows, 'postgresql', inputs);
}

/**
 * PostgreSQL column types of the rows the store inserts: one array parameter per column, so the
 * INSERT's text is the same whatever the batch size and is parsed and planned once per
 * connection (a named statement) instead of once per batch, as a multi-row VALUES list with a
 * parameter per cell was.
 */
const PG_TYPES: Record<string, string> = {
  seq: 'int4',
  lane: 'int4',
  createdAt: 'timestamp(3)',
  valid: 'bool',
  shadowDiffers: 'bool',
  durationMs: 'float8',
  executionMs: 'float8',
};

function unnestInsert(table: string, columns: readonly string[]): { name: string; text: string } {
  const arrays = columns.map((c, i) => `$${i + 1}::${PG_TYPES[c] ?? 'text'}[]`).join(', ');
  return { name: `tg_insert_${table}`, text: `INSERT INTO "${table}" (${quoted(columns)}) SELECT * FROM unnest(${arrays})` };
}

const INSERTS = { Evidence: unnestInsert('Evidence', EVIDENCE_COLUMNS), Violation: unnestInsert('Violation', VIOLATION_COLUMNS) };

async function insertMany<C extends string>(
  client: pg.PoolClient,
  table: keyof typeof INSERTS,
  columns: readonly C[],
  rows: Record<C, unknown>[],
): Promise<void> {
  const values = columns.map((c) => rows.map((row) => pgValue(row[c])));
  await client.query({ ...INSERTS[table], values });
}

function pgValue(value: unknown): unknown {
  // "timestamp without time zone" columns hold UTC wall-clock time, as Prisma writes them.
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

export type RawEvidenceStoreFactory = (target: DatabaseTarget) => RawEvidenceStore;

/** The default: statements on this thread (the data plane swaps in a writer thread for SQLite). */
export const createRawEvidenceStore: RawEvidenceStoreFactory = (target) =>
  target.provider === 'postgresql' ? new PostgresEvidenceStore(target.url) : new SqliteEvidenceStore(target.file as string);
