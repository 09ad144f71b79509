import { PrismaClient as SqliteClient } from './generated/sqlite/client';
import { PrismaClient as PostgresClient } from './generated/postgresql/client';
import { createAdapterFactory } from './db/adapter';
import { parseDatabaseUrl, type DatabaseTarget } from './db/database-url';
import { env } from './env';

export type { Prisma } from './generated/sqlite/client';

/**
 * One model, two generated clients: Prisma bakes the provider into the client, so SQLite and
 * PostgreSQL each get theirs. Both expose the same model API; the SQLite client's type is the
 * one the code is written against.
 */
export type Db = SqliteClient;

/** The client handed to an interactive transaction's callback. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

const globalForDb = globalThis as unknown as {
  toolgateDb?: { db: Db; target: DatabaseTarget; raw: string | undefined };
  toolgateDbClosed?: boolean;
};

export function createDb(target: DatabaseTarget, options: { statementTimeoutMs?: number } = {}): Db {
  const adapter = createAdapterFactory(target, options);
  if (target.provider === 'postgresql') {
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  return new SqliteClient({ adapter });
}

/** The process-wide client, created on first use from DATABASE_URL. */
export function db(): Db {
  const url = process.env.DATABASE_URL;
  const existing = globalForDb.toolgateDb;
  if (existing && existing.raw === url) return existing.db;
  const target = parseDatabaseUrl(url);
  if (existing && existing.target.url === target.url) {
    existing.raw = url;
    return existing.db;
  }
  const created = { db: createDb(target, { statementTimeoutMs: env().TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS * 1000 }), target, raw: url };
  globalForDb.toolgateDb = created;
  globalForDb.toolgateDbClosed = false;
  return created.db;
}

export function dbProvider(): DatabaseTarget['provider'] {
  return parseDatabaseUrl(process.env.DATABASE_URL).provider;
}

/** Tests point DATABASE_URL elsewhere between files; this drops the old client. */
export async function disconnectDb(): Promise<void> {
  const existing = globalForDb.toolgateDb;
  globalForDb.toolgateDb = undefined;
  globalForDb.toolgateDbClosed = true;
  if (existing) await existing.db.$disconnect();
}

/**
 * Whether the process-wide client was disconnected and nothing has used the database since.
 * Background pollers check this so that they do not open a new client (whose PostgreSQL pool
 * would keep a finished script alive) after the process is done with the database.
 */
export function dbClosed(): boolean {
  return globalForDb.toolgateDbClosed === true;
}

/** A unique constraint refused the row (Prisma's P2002): someone else made it first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002';
}
