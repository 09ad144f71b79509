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

export async function insertCounters(target: DatabaseTarget, tenantId: string, rows: readonly SeededCounter[]): Promise<void> {
  if (target.provider === 'sqlite') {
    const connection = new Database(target.file as string);
    const insert = connection.prepare(
      `INSERT INTO "HistoryCounter" ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    connection.transaction(() => {
      for (const r of rows) insert.run(tenantId, r.series, r.scope, r.bucket, r.count, r.total, r.lastAt);
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
        `INSERT INTO "HistoryCounter" ("tenantId", "series", "scope", "bucket", "count", "total", "lastAt")
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int4[], $6::float8[], $7::bigint[])`,
        [
          tenantId,
          chunk.map((r) => r.series),
          chunk.map((r) => r.scope),
          chunk.map((r) => r.bucket),
          chunk.map((r) => r.count),
          chunk.map((r) => r.total),
          chunk.map((r) => r.lastAt),
        ],
      );
    }
  } finally {
    await client.end();
  }
}
