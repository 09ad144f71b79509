import { CounterRows, type CounterRow } from './counter-rows';
import type { CallHistory } from './call-history';

/** A record whose claims or reads no longer hold; the call is decided again (validate/pre retries). */
export class HistoryConflictError extends Error {
  constructor() {
    super('history changed while the call was decided');
    this.name = 'HistoryConflictError';
  }
}

/** One (series, scope) the commit must read, from its oldest bucket needed. */
export interface CounterKey {
  series: string;
  scope: string;
  from: number;
}

/**
 * The counters of one evidence transaction: loaded once for every key the batch touches, then
 * each record admitted in order (its claims and reads checked against the counts so far, its
 * increments added) or refused, and the admitted increments written together.
 */
export class HistoryLedger {
  private readonly rows = new CounterRows();
  private readonly pending = new Map<
    string,
    { series: string; scope: string; bucket: number; count: number; total: number; lastAt: number }
  >();

  static keysOf(histories: readonly (CallHistory | undefined)[]): CounterKey[] {
    const keys = new Map<string, CounterKey>();
    for (const history of histories) {
      if (!history) continue;
      for (const item of [...history.claims, ...history.reads]) {
        const id = `${item.series}|${item.scope}`;
        const known = keys.get(id);
        if (!known || item.from < known.from) keys.set(id, { series: item.series, scope: item.scope, from: item.from });
      }
    }
    return [...keys.values()];
  }

  load(series: string, scope: string, rows: readonly CounterRow[]): void {
    this.rows.load(series, scope, rows);
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
      const sums = this.rows.sums(claim.series, claim.scope, claim.from);
      const used = claim.measure === 'count' ? sums.count : sums.total;
      if (used + claim.amount > claim.max) return false;
    }
    for (const read of history.reads) {
      const sums = this.rows.sums(read.series, read.scope, read.from);
      if (sums.count !== read.count || sums.total !== read.total || sums.lastAt !== read.lastAt) return false;
    }
    return true;
  }

  /** Counts the record's increments (after `holds`, once whatever commits with the record has run). */
  count(history: CallHistory | undefined): void {
    if (!history) return;
    for (const inc of history.increments) {
      this.rows.add(inc.series, inc.scope, inc.bucket, 1, inc.total, inc.at);
      const id = `${inc.series}|${inc.scope}|${inc.bucket}`;
      const row = this.pending.get(id);
      if (row) {
        row.count += 1;
        row.total += inc.total;
        row.lastAt = Math.max(row.lastAt, inc.at);
      } else this.pending.set(id, { series: inc.series, scope: inc.scope, bucket: inc.bucket, count: 1, total: inc.total, lastAt: inc.at });
    }
  }

  /** The admitted increments, one per counter row, to upsert. */
  writes(): { series: string; scope: string; bucket: number; count: number; total: number; lastAt: number }[] {
    return [...this.pending.values()];
  }
}

/** Counter statements for each database: parameter markers and the max function differ. */
export function counterSql(provider: 'sqlite' | 'postgresql') {
  const pg = provider === 'postgresql';
  const max = pg ? 'GREATEST' : 'MAX';
  const p = (n: number) => (pg ? `$${n}` : '?');
  return {
    select: `SELECT "bucket", "count", "total", "lastAt" FROM "HistoryCounter" WHERE "tenantId" = ${p(1)} AND "series" = ${p(2)} AND "scope" = ${p(3)} AND "bucket" >= ${p(4)} ORDER BY "bucket"`,
    upsert: `INSERT INTO "HistoryCounter" ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt") VALUES (${[1, 2, 3, 4, 5, 6, 7].map(p).join(', ')})
      ON CONFLICT ("tenantId", "series", "scope", "bucket") DO UPDATE SET "count" = "HistoryCounter"."count" + excluded."count",
      "total" = "HistoryCounter"."total" + excluded."total", "lastAt" = ${max}("HistoryCounter"."lastAt", excluded."lastAt")`,
  };
}

export function toCounterRow(row: { bucket: unknown; count: unknown; total: unknown; lastAt: unknown }): CounterRow {
  return { bucket: Number(row.bucket), count: Number(row.count), total: Number(row.total), lastAt: Number(row.lastAt) };
}
