import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { DatabaseTarget } from './database-url';
import { postgresSessionOptions } from './postgres-session';

/**
 * The Prisma driver adapter factory for a database target (SQLite file or PostgreSQL).
 * `statementTimeoutMs` bounds each PostgreSQL statement (0 or absent: unbounded); SQLite's
 * lock waits are bounded by `timeout` below.
 */
export function createAdapterFactory(target: DatabaseTarget, options: { poolSize?: number; statementTimeoutMs?: number } = {}) {
  if (target.provider === 'postgresql') {
    return new PrismaPg({
      connectionString: target.url,
      max: options.poolSize ?? 10,
      options: postgresSessionOptions(options.statementTimeoutMs ?? 0),
    });
  }
  return new DurableSqliteAdapterFactory({ url: target.url, timeout: 5000 }, { timestampFormat: SQLITE_TIMESTAMP_FORMAT });
}

/**
 * SQLite stores every DateTime as an integer, milliseconds since the epoch (Prisma's default
 * is ISO-8601 text, 29 bytes where the integer takes 6, in the row and in every index that
 * holds it: 23 bytes of every evidence record; issue 19, `npm run bench:evidence-size`). The
 * migration 20261129093000_sqlite_integer_timestamps turned stored text into integers. Raw SQL
 * through Prisma passes a Date, which the adapter converts; code that writes SQLite without
 * Prisma (the raw stores, benches' bulk loads) writes `date.getTime()`, and gives every
 * timestamp column a value (a column's DEFAULT CURRENT_TIMESTAMP would store text).
 */
const SQLITE_TIMESTAMP_FORMAT = 'unixepoch-ms';

/**
 * better-sqlite3 builds SQLite with WAL commits at synchronous=NORMAL: a commit survives a
 * process crash but not a power cut. Approvals, tokens and evidence committed through Prisma
 * must survive both, so every connection is switched to FULL before its first query.
 */
class DurableSqliteAdapterFactory extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript('PRAGMA synchronous = FULL');
    return adapter;
  }
}
