import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { DatabaseTarget } from './database-url';

/** The Prisma driver adapter factory for a database target (SQLite file or PostgreSQL). */
export function createAdapterFactory(target: DatabaseTarget, options: { poolSize?: number } = {}) {
  if (target.provider === 'postgresql') {
    return new PrismaPg({ connectionString: target.url, max: options.poolSize ?? 10 });
  }
  // Millisecond timestamps keep DateTime ordering exact and comparable across providers.
  return new PrismaBetterSqlite3({ url: target.url, timeout: 5000 });
}
