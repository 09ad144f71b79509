import pg from 'pg';
import { log } from '../log';
import { HOT_PATH_STATEMENT_TIMEOUT_MS, postgresSessionOptions } from '../db/postgres-session';
import { now } from '../clock/clock';
import { chainRecords, type EvidenceRecord, type LaneHead } from './chain-records';
import { EVIDENCE_COLUMNS, quoted, VIOLATION_COLUMNS } from './evidence-columns';
import { storedRequestId } from './stored-request-id';
import { ADD_LANE, ALLOCATE_SEQS, allocateSeqs, TAKE_FREE, takeLanes, type LaneQuery } from './evidence-lanes';
import type { EvidenceInput, RawEvidenceStore, RecordedEvidence } from './evidence-input';
import { admitHistoryWith, type HistoryAdmission } from '../history/commit-counters';
import { rememberCommitted, type CommittedWindow } from '../history/window-cache';
import { addOnConflict, ROLLUP_COLUMNS, rollupDeltas } from '../rollups/rollup-rows';

/**
 * The evidence commit on PostgreSQL: BEGIN, a lane per tenant (evidence-lanes.ts), seqs on a
 * second connection, then everything the batch writes in one statement, and COMMIT. Every round
 * trip costs the request thread node-postgres' work on both sides of it; with the evidence,
 * violations, both rollups and the lane heads each a statement of their own a commit took eight.
 */
export class PostgresEvidenceStore implements RawEvidenceStore {
  private readonly pool: pg.Pool;
  /** Lanes added and seqs handed out, each committed at once (lib/evidence/evidence-lanes.ts). */
  private readonly autocommitPool: pg.Pool;
  /**
   * Contract hashes' keys (EvidenceContractHash), each added once and committed at once on the
   * autocommit connection before the evidence transaction that names it, so a key kept here is
   * always committed; a commit that fails clears them, should a key have gone since.
   */
  private readonly contractHashKeys = new Map<string, number>();
  /** `onCommitted` hears each committed transaction's windows: this process's cache, or the writer thread's parent. */
  constructor(
    url: string,
    private readonly onCommitted: (windows: CommittedWindow[]) => void = rememberCommitted,
    /** How long one statement of a commit may take, waits for locks included (tests shorten it). */
    statementTimeoutMs = HOT_PATH_STATEMENT_TIMEOUT_MS,
  ) {
    const session = postgresSessionOptions(statementTimeoutMs);
    // One commit at a time per instance (EvidenceWriter waits for it): what arrives meanwhile makes
    // the next batch bigger. Measured with three in flight (each in a lane of its own), the
    // smaller batches cost more CPU per record in round trips than the overlap gained, on two cores.
    this.pool = new pg.Pool({ connectionString: url, max: 2, options: `${session} ${GENERIC_PLANS}` });
    // A lane or seq whose commit is lost in a crash was used by no committed record: a record's
    // own (synchronous) commit flushes the log up to it, these statements' with it.
    this.autocommitPool = new pg.Pool({
      connectionString: url,
      max: 1,
      options: `${session} -c synchronous_commit=off ${GENERIC_PLANS}`,
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next commit.
    for (const pool of [this.pool, this.autocommitPool])
      pool.on('error', (error) => log.warn('evidence pool connection lost', { error: error.message }));
  }

  async commit(all: EvidenceInput[]): Promise<(RecordedEvidence | null)[]> {
    const client = await this.pool.connect();
    // The pool stops listening for a client's errors while it is checked out: a connection the
    // server ends meanwhile (pg_terminate_backend, a failover) emitted an 'error' nobody heard,
    // which killed the writer thread and failed every record in flight, committed ones too. The
    // statement waiting on it fails on its own; the client is then discarded, not reused.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
      log.warn('evidence connection lost', { error: error.message });
    };
    client.on('error', onError);
    let transactionId: string | undefined;
    const tx: LaneQuery = async (sql, params) => (await client.query(prepared(sql, params))).rows;
    const autocommit: LaneQuery = async (sql, params) => (await this.autocommitPool.query(prepared(sql, params))).rows;
    try {
      const contractHashKeys = await this.contractHashKeysOf(all);
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
      if (rows.length > 0) {
        const deltas = rollupDeltas(rows, violations);
        const moved = [...counts.keys()].map((tenantId) => ({ tenantId, ...(heads.get(tenantId) as LaneHead) }));
        const written = await client.query<{ xid: string }>({
          ...WRITE_BATCH,
          values: [rows.map((row) => evidenceRow(row, contractHashKeys)), violations, deltas.evidence, deltas.violations, moved].map(
            jsonParameter,
          ),
        });
        transactionId = written.rows[0]?.xid;
      }
      await this.commitOrLearnOutcome(client, transactionId);
      if (admission && admission.windows.length > 0) this.onCommitted(admission.windows);
      const recorded = rows.map((r) => ({ id: r.id, seq: r.seq, hash: r.hash }));
      if (!admitted) return recorded;
      let next = 0;
      return admitted.map((ok) => (ok ? (recorded[next++] as RecordedEvidence) : null));
    } catch (error) {
      // A connection whose answer was lost is not handed out again, whatever it emitted.
      if (!lost && isConnectionLoss(error)) lost = error as Error;
      if (!lost) await client.query('ROLLBACK').catch(() => undefined);
      this.contractHashKeys.clear();
      throw error;
    } finally {
      // A lost connection may still emit its errors as it closes: it keeps the listener.
      if (!lost) client.off('error', onError);
      client.release(lost);
    }
  }

  /**
   * COMMIT, and when its answer is lost with the connection (the server ended it after
   * committing, or before), asks on another connection whether the transaction committed:
   * answering 503 for records that are stored told the agent nothing was decided while the
   * records counted (limits, budgets), and its retry was decided a second time. Only a
   * transaction the database reports committed is taken as done; anything else (aborted, or
   * the database unreachable) stays the failure it was.
   */
  private async commitOrLearnOutcome(client: pg.PoolClient, transactionId: string | undefined): Promise<void> {
    try {
      await client.query('COMMIT');
    } catch (error) {
      if (transactionId === undefined || !isConnectionLoss(error)) throw error;
      const status = await this.autocommitPool
        .query<{ status: string | null }>('SELECT txid_status($1::bigint) AS "status"', [transactionId])
        .then((r) => r.rows[0]?.status ?? null)
        .catch(() => null);
      if (status !== 'committed') throw error;
      log.warn('evidence commit answer lost; the transaction committed', { transaction: transactionId });
    }
  }

  /** The keys of the contract hashes `inputs` name, those not known yet added and read in two statements. */
  private async contractHashKeysOf(inputs: readonly EvidenceInput[]): Promise<ReadonlyMap<string, number>> {
    const missing = [...new Set(inputs.map((i) => i.contractHash ?? null))].filter(
      (hex): hex is string => hex !== null && !this.contractHashKeys.has(hex),
    );
    if (missing.length > 0) {
      const hashes = missing.map((hex) => `\\x${hex}`);
      // Two statements, not one: a hash another instance adds meanwhile is waited for by the
      // INSERT and seen by the SELECT's later snapshot, where one statement's would miss it.
      await this.autocommitPool.query(ADD_CONTRACT_HASHES, [hashes]);
      const found = await this.autocommitPool.query<{ key: number; hash: string }>(CONTRACT_HASH_KEYS, [hashes]);
      if (this.contractHashKeys.size + found.rows.length > CONTRACT_HASH_KEYS_KEPT) this.contractHashKeys.clear();
      for (const row of found.rows) this.contractHashKeys.set(row.hash, row.key);
    }
    return this.contractHashKeys;
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.autocommitPool.end();
  }
}

/**
 * Every statement on these connections is prepared once and planned once. PostgreSQL otherwise
 * plans a statement with an array parameter (the lane take's and the seq allocation's tenant
 * lists) again at each execution, since its generic plan's estimate (100 array elements) looks
 * dearer than a plan for the actual one. The plans do not depend on the values: a lateral index
 * lookup per tenant, and JSON parameters whose row count no plan knows. Under log_statement_stats
 * (`bench/validate/writer-cpu.ts --provider postgresql --batch 15`), per commit: the lane take's
 * bind 238 -> 61 µs, the allocation's 251 -> 50 (its execution 157 -> 247), about 285 µs less.
 */
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/**
 * The lane statements every commit runs, as named prepared statements: parsed and planned once
 * per connection instead of once per commit. Only these fixed texts are named; a named statement
 * stays on its connection, so one named per distinct text would grow without bound.
 */
const STATEMENT_NAMES = new Map([
  [TAKE_FREE, 'tg_take_free_lane'],
  [ADD_LANE, 'tg_add_lane'],
  [ALLOCATE_SEQS, 'tg_allocate_seqs'],
]);
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  const name = STATEMENT_NAMES.get(text);
  return name ? { name, text, values } : { text, values };
}

function admitHistoryPg(client: pg.PoolClient, inputs: readonly EvidenceInput[]): Promise<HistoryAdmission | null> {
  return admitHistoryWith(async (sql, params) => (await client.query(sql, params)).rows, 'postgresql', inputs);
}

/** Rows of `table` from the JSON array parameter `$n`, its objects keyed by column name. */
const fromJson = (table: string, columns: readonly string[], n: number) =>
  `INSERT INTO "${table}" (${quoted(columns)}) SELECT ${quoted(columns)} FROM json_populate_recordset(NULL::"${table}", $${n}::json)`;

/**
 * The batch's evidence, violations, rollup counts and lane heads in one statement. Each is a JSON
 * array parameter: JSON.stringify is native, where node-postgres built an array literal per
 * column in JavaScript (about 9% of the request thread's time under load). The statement's text
 * is the same for every batch, so it is parsed and planned once per connection. Its parts run
 * on one snapshot and none reads what another writes; the violations' foreign key to evidence
 * is checked when the statement ends.
 */
const WRITE_BATCH = {
  name: 'tg_write_evidence_batch',
  text: `WITH evidence AS (${fromJson('Evidence', EVIDENCE_COLUMNS, 1)}),
  violations AS (${fromJson('Violation', VIOLATION_COLUMNS, 2)}),
  evidence_rollups AS (${fromJson('EvidenceRollup', ROLLUP_COLUMNS.EvidenceRollup.columns, 3)} ${addOnConflict('EvidenceRollup')}),
  violation_rollups AS (${fromJson('ViolationRollup', ROLLUP_COLUMNS.ViolationRollup.columns, 4)} ${addOnConflict('ViolationRollup')})
UPDATE "EvidenceChainHead" h SET "seq" = u."seq", "hash" = u."hash"
  FROM json_populate_recordset(NULL::"EvidenceChainHead", $5::json) u WHERE h."tenantId" = u."tenantId" AND h."lane" = u."lane"
  RETURNING txid_current()::text AS "xid"`,
};

/**
 * An error that ended the connection rather than the statement: the server's answer to what
 * was sent is unknown. node-postgres says so in words; a server that ended the session sends
 * 57P01 (admin shutdown) or 57P02/57P03 first.
 */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code.startsWith('57P') || code === 'ECONNRESET' || code === 'EPIPE' || code === '08006';
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection error|not queryable|ECONNRESET/i.test(message);
}

/**
 * The JSON text of `rows` for a json parameter. Dates become ISO-8601 in UTC, which a
 * "timestamp without time zone" column takes as UTC wall-clock time (its zone is ignored), as
 * Prisma writes them. chainRecords has made every string well-formed: PostgreSQL's json refuses
 * the escape JSON.stringify writes for a lone surrogate, so one left in would fail the commit.
 */
const jsonParameter = (rows: readonly object[]): string => JSON.stringify(rows);

const ADD_CONTRACT_HASHES = `INSERT INTO "EvidenceContractHash" ("hash") SELECT unnest($1::bytea[]) ON CONFLICT ("hash") DO NOTHING`;
const CONTRACT_HASH_KEYS = `SELECT "key", encode("hash", 'hex') AS "hash" FROM "EvidenceContractHash" WHERE "hash" = ANY($1::bytea[])`;
/** Contract versions in use are few; a process that has seen more than this starts over. */
const CONTRACT_HASH_KEYS_KEPT = 10_000;

/**
 * A record as its JSON row: hash columns in bytea's hex input form (`\x…`), which
 * json_populate_recordset hands to the bytea columns (lib/evidence/stored-hashes.ts), its
 * contract hash by key (./stored-record.ts) and its requestId '' when it is the record's id
 * (./stored-request-id.ts).
 */
function evidenceRow(row: EvidenceRecord, contractHashKeys: ReadonlyMap<string, number>): object {
  const contractHashKey = row.contractHash === null ? null : contractHashKeys.get(row.contractHash);
  if (contractHashKey === undefined) throw new Error(`no key for contract hash ${row.contractHash}`);
  return {
    ...row,
    requestId: storedRequestId(row),
    prevHash: `\\x${row.prevHash}`,
    hash: `\\x${row.hash}`,
    argsHash: `\\x${row.argsHash}`,
    contractHash: undefined,
    contractHashKey,
  };
}
