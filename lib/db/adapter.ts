import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { DatabaseTarget } from './database-url';

/** The Prisma driver adapter factory for a database target (SQLite file or PostgreSQL). */
export function createAdapterFactory(target: DatabaseTarget, options: { poolSize?: number } = {}) {
  if (target.provider === 'postgresql') {
    return new PrismaPg({ connectionString: target.url, max: options.poolSize ?? 10 });
  }
  return new DurableSqliteAdapterFactory({ url: target.url, timeout: 5000 });
}

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
