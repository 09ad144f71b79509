import Database from 'better-sqlite3';
import pg from 'pg';
import { parseDatabaseUrl } from '../db/database-url';
import { log } from '../log';
import { HOT_PATH_STATEMENT_TIMEOUT_MS, postgresSessionOptions } from '../db/postgres-session';
import { counterSql, SUMS_MANY_POSTGRES, toCounterRow, windowSumsOf, type StoredSums } from './history-ledger';
import type { CounterKey } from './history-ledger';
import { NO_CALLS, type CounterRow, type WindowSums } from './counter-rows';

/**
 * Reads counters on the request path in plain SQL: prepared statements on SQLite (a read
 * connection beside the writer; WAL lets it read while a commit runs), one round trip on
 * PostgreSQL for all windows of a call. Prisma's client would cost more CPU than the whole
 * limit check is allowed (bench/limits). Windows are read as sums; rows only when asked.
 */
interface Reader {
  url: string;
  sums(tenantId: string, keys: readonly CounterKey[]): Promise<WindowSums[]>;
  rows(tenantId: string, keys: readonly CounterKey[]): Promise<CounterRow[][]>;
  close(): Promise<void>;
}

let reader: Reader | undefined;

function currentReader(): Reader {
  const url = process.env.DATABASE_URL ?? '';
  if (reader && reader.url === url) return reader;
  void reader?.close();
  const target = parseDatabaseUrl(url || undefined);
  reader = target.provider === 'postgresql' ? postgresReader(url, target.url) : sqliteReader(url, target.file as string);
  return reader;
}

/** Each window's count, total and newest call, in the order of the keys. */
export function readWindowSums(tenantId: string, keys: readonly CounterKey[]): Promise<WindowSums[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return currentReader().sums(tenantId, keys);
}

/** Each window's rows, oldest bucket first. */
export function readCounterRows(tenantId: string, keys: readonly CounterKey[]): Promise<CounterRow[][]> {
  if (keys.length === 0) return Promise.resolve([]);
  return currentReader().rows(tenantId, keys);
}

export async function closeCounterReader(): Promise<void> {
  const current = reader;
  reader = undefined;
  await current?.close();
}

function sqliteReader(url: string, file: string): Reader {
  const connection = new Database(file, { fileMustExist: true });
  connection.pragma('busy_timeout = 200');
  const sql = counterSql('sqlite');
  // Rows as arrays: better-sqlite3 builds a row object a property at a time (bench/limits).
  const select = connection.prepare(sql.select.sql).raw();
  const sums = connection.prepare(sql.sums.sql);
  // One read transaction for all of a call's windows rather than one per statement (three
  // windows: 24 against 29 µs of CPU, measured alone with a writer committing every millisecond).
  const readAll = connection.transaction((tenantId: string, keys: readonly CounterKey[]) =>
    keys.map((key) => windowSumsOf(sums.get(sql.sums.args([tenantId, key.series, key.scope, key.from])) as StoredSums | undefined)),
  );
  return {
    url,
    async sums(tenantId, keys) {
      return readAll(tenantId, keys);
    },
    async rows(tenantId, keys) {
      return keys.map((key) =>
        (select.all(sql.select.args([tenantId, key.series, key.scope, key.from])) as [number, number, number, number][]).map(
          ([bucket, count, total, lastAt]) => ({ bucket, count, total, lastAt }),
        ),
      );
    },
    async close() {
      connection.close();
    },
  };
}

function postgresReader(url: string, connectionString: string): Reader {
  const pool = new pg.Pool({ connectionString, max: 4, options: postgresSessionOptions(HOT_PATH_STATEMENT_TIMEOUT_MS) });
  pool.on('error', (error) => log.warn('history reader connection lost', { error: error.message }));
  const keysSql = `unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS q(series, scope, from_bucket, i)`;
  const join = `"HistoryCounter" h ON h."tenantId" = $1 AND h."series" = q.series AND h."scope" = q.scope AND h."bucket" >= q.from_bucket`;
  const rowsSql = `SELECT q.i, h."bucket", h."count", h."total", h."lastAt" FROM ${keysSql} JOIN ${join} ORDER BY q.i, h."bucket"`;
  const params = (tenantId: string, keys: readonly CounterKey[]) => [
    tenantId,
    keys.map((k) => k.series),
    keys.map((k) => k.scope),
    keys.map((k) => k.from),
  ];
  return {
    url,
    async sums(tenantId, keys) {
      const result = await pool.query<{ i: string; count: string; total: number; lastAt: string }>(
        SUMS_MANY_POSTGRES,
        params(tenantId, keys),
      );
      const out: WindowSums[] = keys.map(() => NO_CALLS);
      for (const row of result.rows) out[Number(row.i) - 1] = windowSumsOf(row);
      return out;
    },
    async rows(tenantId, keys) {
      const result = await pool.query<{ i: string; bucket: string; count: number; total: number; lastAt: string }>(
        rowsSql,
        params(tenantId, keys),
      );
      const out: CounterRow[][] = keys.map(() => []);
      for (const row of result.rows) out[Number(row.i) - 1]?.push(toCounterRow(row));
      return out;
    },
    async close() {
      await pool.end();
    },
  };
}
