// Raw inserts of seeded HistoryCounter rows (bench/limits/seed.ts), and the table's size.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../../lib/db/database-url';

export interface SeededCounter {
  series: string;
  scope: string;
  bucket: number;
  count: number;
  total: number;
  lastAt: number;
}

const CHUNK = 5000;

/** The rows with the running totals the evidence commit would have left (lib/history/history-ledger.ts). */
function withRunningTotals(rows: readonly SeededCounter[]) {
  const sorted = [...rows].sort((a, b) => a.series.localeCompare(b.series) || a.scope.localeCompare(b.scope) || a.bucket - b.bucket);
  let key = '';
  let cumCount = 0;
  let cumTotal = 0;
  return sorted.map((r) => {
    if (`${r.series}|${r.scope}` !== key) {
      key = `${r.series}|${r.scope}`;
      cumCount = 0;
      cumTotal = 0;
    }
    cumCount += r.count;
    cumTotal += r.total;
    return { ...r, cumCount, cumTotal };
  });
}

export async function insertCounters(target: DatabaseTarget, tenantId: string, seeded: readonly SeededCounter[]): Promise<void> {
  const rows = withRunningTotals(seeded);
  if (target.provider === 'sqlite') {
    const connection = new Database(target.file as string);
    const insert = connection.prepare(
      `INSERT INTO "HistoryCounter" ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt", "cumCount", "cumTotal") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    connection.transaction(() => {
      for (const r of rows) insert.run(tenantId, r.series, r.scope, r.bucket, r.count, r.total, r.lastAt, r.cumCount, r.cumTotal);
    })();
    connection.close();
    return;
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      await client.query(
        `INSERT INTO "HistoryCounter" ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt", "cumCount", "cumTotal")
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int4[], $6::float8[], $7::bigint[], $8::bigint[], $9::float8[])`,
        [
          tenantId,
          chunk.map((r) => r.series),
          chunk.map((r) => r.scope),
          chunk.map((r) => r.bucket),
          chunk.map((r) => r.count),
          chunk.map((r) => r.total),
          chunk.map((r) => r.lastAt),
          chunk.map((r) => r.cumCount),
          chunk.map((r) => r.cumTotal),
        ],
      );
    }
  } finally {
    await client.end();
  }
}
