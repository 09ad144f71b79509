import { NO_CALLS, rowsKey, type CounterRow, type WindowSums } from './counter-rows';
import type { CallHistory } from './call-history';
import { exceeds } from './limit-arithmetic';

/** A record whose claims or reads no longer hold; the call is decided again (validate/pre retries). */
export class HistoryConflictError extends Error {
  constructor() {
    super('history changed while the call was decided');
    this.name = 'HistoryConflictError';
  }
}

/** One window (series, scope, oldest bucket) a call reads or the commit must check. */
export interface CounterKey {
  series: string;
  scope: string;
  from: number;
}

export const windowKey = (key: CounterKey) => `${key.series}|${key.scope}|${key.from}`;

type CounterWrite = { series: string; scope: string; bucket: number; count: number; total: number; lastAt: number };
/** The newest stored row of a series and scope, as the transaction found it. */
type Latest = { bucket: number; cumCount: number; cumTotal: number };
/**
 * A write and how: `put` into the newest row or a newer one, its running totals after the write
 * known, or (when the newest row is not known, or is newer than the bucket: a late commit) `add`
 * to the bucket from what the database holds and `carry` the increment into newer rows' totals.
 */
export type LedgerWrite = CounterWrite & ({ mode: 'put'; cumCount: number; cumTotal: number } | { mode: 'add'; carry: boolean });

/**
 * The counters of one evidence transaction: each window the batch checks is summed once from
 * the database, then each record admitted in order (its claims and reads checked against those
 * sums plus what the batch has counted so far, its increments added) or refused, and the
 * admitted increments written together.
 */
export class HistoryLedger {
  private readonly base = new Map<string, WindowSums>();
  private readonly keys: CounterKey[] = [];
  /** What this batch has counted, per series and scope; every increment is in the current bucket, so inside any window read now. */
  private readonly added = new Map<string, CounterWrite[]>();
  private readonly pending = new Map<string, CounterWrite>();
  /** The newest stored row per series and scope, where a load has told it (null: no rows). */
  private readonly latest = new Map<string, Latest | null>();

  static keysOf(histories: readonly (CallHistory | undefined)[]): CounterKey[] {
    const keys = new Map<string, CounterKey>();
    for (const history of histories) {
      if (!history) continue;
      for (const item of [...history.claims, ...history.reads]) {
        const key = { series: item.series, scope: item.scope, from: item.from };
        keys.set(windowKey(key), key);
      }
    }
    return [...keys.values()];
  }

  /** The window's sums as stored before this batch, with the newest stored bucket of its series and scope. */
  load(key: CounterKey, sums: WindowSums & { latest: Latest | null }): void {
    this.base.set(windowKey(key), { count: sums.count, total: sums.total, lastAt: sums.lastAt });
    this.keys.push(key);
    this.latest.set(rowsKey(key.series, key.scope), sums.latest);
  }

  /** Every window loaded, with what it holds once the admitted increments are in (for lib/history/window-cache.ts). */
  windows(): (CounterKey & WindowSums)[] {
    return this.keys.map((key) => ({ series: key.series, scope: key.scope, from: key.from, ...this.sums(key) }));
  }

  private sums(key: CounterKey): WindowSums {
    const base = this.base.get(windowKey(key)) ?? NO_CALLS;
    let { count, total, lastAt } = base;
    for (const row of this.added.get(rowsKey(key.series, key.scope)) ?? []) {
      if (row.bucket < key.from) continue;
      count += row.count;
      total += row.total;
      if (row.lastAt > lastAt) lastAt = row.lastAt;
    }
    return { count, total, lastAt };
  }

  /** Checks the record's claims and reads; when they hold, counts its increments and says true. */
  admit(history: CallHistory | undefined): boolean {
    if (!this.holds(history)) return false;
    this.count(history);
    return true;
  }

  /** Whether the record's claims and reads hold against the counts so far (nothing is counted). */
  holds(history: CallHistory | undefined): boolean {
    if (!history) return true;
    for (const claim of history.claims) {
      const sums = this.sums(claim);
      const used = claim.measure === 'count' ? sums.count : sums.total;
      // As the decision compared (lib/history/limit-arithmetic.ts), or a call decided allowed at its limit never commits.
      if (exceeds(used + claim.amount, claim.max)) return false;
    }
    for (const read of history.reads) {
      const sums = this.sums(read);
      if (sums.count !== read.count || sums.total !== read.total || sums.lastAt !== read.lastAt) return false;
    }
    return true;
  }

  /** Counts the record's increments (after `holds`, once whatever commits with the record has run). */
  count(history: CallHistory | undefined): void {
    if (!history) return;
    for (const inc of history.increments) {
      const id = `${inc.series}|${inc.scope}|${inc.bucket}`;
      const row = this.pending.get(id);
      if (row) {
        row.count += 1;
        row.total += inc.total;
        row.lastAt = Math.max(row.lastAt, inc.at);
        continue;
      }
      const created = { series: inc.series, scope: inc.scope, bucket: inc.bucket, count: 1, total: inc.total, lastAt: inc.at };
      this.pending.set(id, created);
      const listKey = rowsKey(inc.series, inc.scope);
      const list = this.added.get(listKey);
      if (list) list.push(created);
      else this.added.set(listKey, [created]);
    }
  }

  /**
   * The admitted increments, one per counter row, in bucket order per series and scope. What
   * the transaction loaded still holds when they are written: it holds the tenant's counters
   * (SQLite's write lock; on PostgreSQL the tenant's chain head, taken first).
   */
  writes(): LedgerWrite[] {
    const byKey = new Map<string, CounterWrite[]>();
    for (const w of this.pending.values()) {
      const key = rowsKey(w.series, w.scope);
      const list = byKey.get(key);
      if (list) list.push(w);
      else byKey.set(key, [w]);
    }
    const out: LedgerWrite[] = [];
    for (const [key, list] of byKey) {
      list.sort((a, b) => a.bucket - b.bucket);
      const latest = this.latest.get(key);
      if (latest === undefined || (latest !== null && (list[0] as CounterWrite).bucket < latest.bucket)) {
        for (const w of list) out.push({ ...w, mode: 'add', carry: latest !== null });
        continue;
      }
      let cumCount = latest?.cumCount ?? 0;
      let cumTotal = latest?.cumTotal ?? 0;
      for (const w of list) {
        cumCount += w.count;
        cumTotal += w.total;
        out.push({ ...w, mode: 'put', cumCount, cumTotal });
      }
    }
    return out;
  }
}

/** The statements (of counterSql) and values that make one write. */
export function writeSteps(tenantId: string, w: LedgerWrite): { step: 'put' | 'add' | 'carry'; values: unknown[] }[] {
  const values = [tenantId, w.series, w.scope, w.bucket, w.count, w.total, w.lastAt];
  if (w.mode === 'put') return [{ step: 'put', values: [...values, w.cumCount, w.cumTotal] }];
  return w.carry
    ? [
        { step: 'add', values },
        { step: 'carry', values },
      ]
    : [{ step: 'add', values }];
}

/**
 * A statement written with numbered markers (`:1`), as each database takes it: PostgreSQL
 * numbers its parameters, better-sqlite3 binds `?` in order, so `args` repeats values as needed.
 */
export interface CounterStatement {
  sql: string;
  args(values: readonly unknown[]): unknown[];
}

function statement(provider: 'sqlite' | 'postgresql', text: string): CounterStatement {
  const order: number[] = [];
  const sql = text.replace(/:(\d)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return provider === 'postgresql' ? `$${n}` : '?';
  });
  return { sql, args: provider === 'postgresql' ? (values) => [...values] : (values) => order.map((i) => values[i]) };
}

const HC = '"HistoryCounter"';
const PUT = `INSERT INTO ${HC} ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt", "cumCount", "cumTotal")`;
const putConflict = (
  max: string,
) => `ON CONFLICT ("tenantId", "series", "scope", "bucket") DO UPDATE SET "count" = ${HC}."count" + excluded."count",
      "total" = ${HC}."total" + excluded."total", "lastAt" = ${max}(${HC}."lastAt", excluded."lastAt"),
      "cumCount" = ${HC}."cumCount" + excluded."count", "cumTotal" = ${HC}."cumTotal" + excluded."total"`;

/** Every `put` of a transaction in one statement (PostgreSQL): the rows are distinct, one per tenant, series, scope and bucket. */
export const PUT_MANY_POSTGRES = `${PUT}
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int4[], $6::float8[], $7::bigint[], $8::bigint[], $9::float8[])
  ${putConflict('GREATEST')}`;

/** The sums statement for many windows of one tenant at once (PostgreSQL): $1 tenant, $2 series, $3 scopes, $4 first buckets. */
export const SUMS_MANY_POSTGRES = `SELECT q.i, l."bucket" AS "latest", l."cumCount" AS "latestCount", l."cumTotal" AS "latestTotal",
    CASE WHEN l."bucket" >= q.from_bucket THEN l."cumCount" - COALESCE(b."cumCount", f."cumCount") ELSE 0 END AS "count",
    CASE WHEN l."bucket" >= q.from_bucket THEN l."cumTotal" - COALESCE(b."cumTotal", f."cumTotal") ELSE 0 END AS "total",
    CASE WHEN l."bucket" >= q.from_bucket THEN l."lastAt" ELSE 0 END AS "lastAt"
  FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS q(series, scope, from_bucket, i)
  CROSS JOIN LATERAL (SELECT h."bucket", h."cumCount", h."cumTotal", h."lastAt" FROM ${HC} h
    WHERE h."tenantId" = $1 AND h."series" = q.series AND h."scope" = q.scope ORDER BY h."bucket" DESC LIMIT 1) l
  LEFT JOIN LATERAL (SELECT h."cumCount", h."cumTotal" FROM ${HC} h
    WHERE h."tenantId" = $1 AND h."series" = q.series AND h."scope" = q.scope AND h."bucket" < q.from_bucket ORDER BY h."bucket" DESC LIMIT 1) b ON TRUE
  LEFT JOIN LATERAL (SELECT h."cumCount" - h."count" AS "cumCount", h."cumTotal" - h."total" AS "cumTotal" FROM ${HC} h
    WHERE h."tenantId" = $1 AND h."series" = q.series AND h."scope" = q.scope ORDER BY h."bucket" LIMIT 1) f ON TRUE`;
const KEY = `"tenantId" = CAST(:1 AS TEXT) AND "series" = CAST(:2 AS TEXT) AND "scope" = CAST(:3 AS TEXT)`;

/**
 * Counter statements for each database. Rows keep running totals (cumCount, cumTotal), so a
 * window's sums are the newest row's totals minus the totals before the window: those of the
 * newest row older than the window, or, when there is none (pruned or never written), those
 * before the oldest row. Parameters: tenant, series, scope, then the window's first bucket
 * (sums, select) or the bucket, count, total and time of an increment (and for insert its running totals).
 */
export function counterSql(provider: 'sqlite' | 'postgresql') {
  const max = provider === 'postgresql' ? 'GREATEST' : 'MAX';
  const at = (text: string) => statement(provider, text);
  return {
    select: at(`SELECT "bucket", "count", "total", "lastAt" FROM ${HC} WHERE ${KEY} AND "bucket" >= CAST(:4 AS BIGINT) ORDER BY "bucket"`),
    /** One row, or none when the series and scope have none: the window's sums and the newest bucket. */
    sums: at(`SELECT l."bucket" AS "latest", l."cumCount" AS "latestCount", l."cumTotal" AS "latestTotal",
      CASE WHEN l."bucket" >= CAST(:4 AS BIGINT) THEN l."cumCount" - COALESCE(b."cumCount", f."cumCount") ELSE 0 END AS "count",
      CASE WHEN l."bucket" >= CAST(:4 AS BIGINT) THEN l."cumTotal" - COALESCE(b."cumTotal", f."cumTotal") ELSE 0 END AS "total",
      CASE WHEN l."bucket" >= CAST(:4 AS BIGINT) THEN l."lastAt" ELSE 0 END AS "lastAt"
      FROM (SELECT "bucket", "cumCount", "cumTotal", "lastAt" FROM ${HC} WHERE ${KEY} ORDER BY "bucket" DESC LIMIT 1) l
      LEFT JOIN (SELECT "cumCount", "cumTotal" FROM ${HC} WHERE ${KEY} AND "bucket" < CAST(:4 AS BIGINT) ORDER BY "bucket" DESC LIMIT 1) b ON 1 = 1
      LEFT JOIN (SELECT "cumCount" - "count" AS "cumCount", "cumTotal" - "total" AS "cumTotal" FROM ${HC} WHERE ${KEY} ORDER BY "bucket" LIMIT 1) f ON 1 = 1`),
    /** Adds an increment to its bucket's row, a new row carrying on from the totals before it. */
    add: at(`${PUT}
      SELECT CAST(:1 AS TEXT), CAST(:2 AS TEXT), CAST(:3 AS TEXT), CAST(:4 AS BIGINT), CAST(:5 AS INTEGER), CAST(:6 AS DOUBLE PRECISION), CAST(:7 AS BIGINT),
        CAST(:5 AS BIGINT) + COALESCE(p."cumCount", 0), CAST(:6 AS DOUBLE PRECISION) + COALESCE(p."cumTotal", 0)
      FROM (SELECT 1 AS "one") o LEFT JOIN (SELECT "cumCount", "cumTotal" FROM ${HC} WHERE ${KEY} AND "bucket" < CAST(:4 AS BIGINT) ORDER BY "bucket" DESC LIMIT 1) p ON 1 = 1
      WHERE 1 = 1
      ${putConflict(max)}`),
    /**
     * An increment into the newest row, or a newer row: its totals after the write are known
     * (a new row takes them; the newest row adds the increment to its own).
     */
    put: at(`${PUT}
      VALUES (CAST(:1 AS TEXT), CAST(:2 AS TEXT), CAST(:3 AS TEXT), CAST(:4 AS BIGINT), CAST(:5 AS INTEGER), CAST(:6 AS DOUBLE PRECISION), CAST(:7 AS BIGINT), CAST(:8 AS BIGINT), CAST(:9 AS DOUBLE PRECISION))
      ${putConflict(max)}`),
    /** An increment into a bucket older than the newest (a late commit): the newer rows' totals include it too. */
    carry: at(`UPDATE ${HC} SET "cumCount" = "cumCount" + CAST(:5 AS BIGINT), "cumTotal" = "cumTotal" + CAST(:6 AS DOUBLE PRECISION),
      "lastAt" = ${max}("lastAt", CAST(:7 AS BIGINT)) WHERE ${KEY} AND "bucket" > CAST(:4 AS BIGINT)`),
  };
}

/** A `sums` row as read (numbers, bigints or strings by driver); absent when the series and scope have no rows. */
export type StoredSums = { latest: unknown; latestCount: unknown; latestTotal: unknown; count: unknown; total: unknown; lastAt: unknown };

/** A window's sums as read; no row is no calls. */
export function windowSumsOf(row: Pick<StoredSums, 'count' | 'total' | 'lastAt'> | undefined): WindowSums {
  return row ? { count: Number(row.count), total: Number(row.total), lastAt: Number(row.lastAt) } : NO_CALLS;
}

/** The same, with the newest row the commit writes after (null: the series and scope have none). */
export function toWindowSums(row: StoredSums | undefined): WindowSums & { latest: Latest | null } {
  const latest = row ? { bucket: Number(row.latest), cumCount: Number(row.latestCount), cumTotal: Number(row.latestTotal) } : null;
  return { ...windowSumsOf(row), latest };
}

export function toCounterRow(row: { bucket: unknown; count: unknown; total: unknown; lastAt: unknown }): CounterRow {
  return { bucket: Number(row.bucket), count: Number(row.count), total: Number(row.total), lastAt: Number(row.lastAt) };
}
