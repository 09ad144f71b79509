import Database from 'better-sqlite3';
import pg from 'pg';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl, type DatabaseTarget } from './database-url';
import { applyMigrations, readMigrationList } from './schema-engine';
import { disconnectDb } from '../db';

/**
 * Applies committed migrations to DATABASE_URL (or the given URL). Safe to run on every start.
 * When every committed migration is already recorded as finished, the schema engine is not
 * started at all: it would take SQLite's exclusive lock, which a running instance holds open,
 * and it costs a second of start-up.
 *
 * SQLite files are switched to WAL: readers stop blocking the evidence writer and a commit
 * appends to the log instead of rewriting a rollback journal (measured here: 4.2 -> 2.8 ms per
 * evidence record through Prisma). The mode is stored in the file. Every connection that
 * writes sets synchronous=FULL itself (lib/db/adapter.ts, the raw evidence store), so a
 * committed record survives a crash or power loss.
 */
export async function migrateDatabase(url = process.env.DATABASE_URL): Promise<{ provider: string; applied: string[] }> {
  const target = parseDatabaseUrl(url);
  if (target.file) prepareSqliteFile(target.file);
  const committed = readMigrationList(target.provider).migrationDirectories.map((d) => d.path);
  const finished = await finishedMigrations(target);
  // A database a newer build has migrated: this build's queries would meet columns and tables it
  // does not know and answer 503s at random, and its own migrations would run on a schema they
  // were not written for. A finished migration older than this build's newest is only one that
  // was renamed or folded into another before it landed, and stays harmless.
  const newest = committed.at(-1) ?? '';
  const ahead = [...finished].filter((name) => name > newest && !committed.includes(name)).sort();
  if (ahead.length) throw new DatabaseAheadOfBuildError(target.provider, ahead);
  let applied: string[] = [];
  if (!committed.every((name) => finished.has(name))) {
    // This process's own client may already hold the database open: the cache poller starts
    // when its modules load, before start-up migrates. On SQLite that idle connection made the
    // schema engine wait for a lock and fail (`SocketTimeout`) on any migration that rebuilds a
    // table with rows in it. Closed here; the next query opens it again.
    await disconnectDb();
    applied = await applyMigrations(target);
  }
  return { provider: target.provider, applied };
}

/**
 * Opens (or makes) the SQLite file and switches it to WAL before the schema engine sees it: a
 * path the engine cannot open failed there as "External error id#0" (a file under /proc) or
 * "disk I/O error" (a directory, as `DATABASE_URL=file:` names the working directory), where
 * SQLite's own open says why.
 */
function prepareSqliteFile(file: string): void {
  try {
    if (existsSync(file) && statSync(file).isDirectory()) throw new Error(`${file} is a directory, not a database file`);
    mkdirSync(path.dirname(file), { recursive: true });
    const connection = new Database(file);
    try {
      connection.pragma('journal_mode = WAL');
    } finally {
      connection.close();
    }
  } catch (error) {
    throw new DatabaseUnreachableError('sqlite', error);
  }
}

async function finishedMigrations(target: DatabaseTarget): Promise<Set<string>> {
  const sql = `SELECT "migration_name" AS name FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`;
  try {
    if (target.provider === 'sqlite') {
      if (!target.file || !existsSync(target.file)) return new Set();
      const connection = new Database(target.file, { readonly: true, fileMustExist: true });
      try {
        return new Set((connection.prepare(sql).all() as { name: string }[]).map((r) => r.name));
      } finally {
        connection.close();
      }
    }
    // A host that drops packets held this connect for minutes, and then the schema engine said
    // only "External error id#0".
    const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    await client.connect();
    try {
      return new Set((await client.query<{ name: string }>(sql)).rows.map((r) => r.name));
    } finally {
      await client.end();
    }
  } catch (error) {
    // No migrations table yet (a new database): let the engine create everything. Anything else
    // (refused, unknown host or database, a password refused, a file that cannot be opened) is
    // the operator's to fix, and said as such: taken for a new database, it reached the schema
    // engine, whose stack traces did not name the cause.
    if (isMissingMigrationsTable(error)) return new Set();
    throw new DatabaseUnreachableError(target.provider, error);
  }
}

const CONNECT_TIMEOUT_MS = 15_000;

function isMissingMigrationsTable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '42P01') return true; // PostgreSQL: undefined_table
  return error instanceof Error && /no such table: _prisma_migrations/.test(error.message);
}

/** A database problem the operator fixes: start-up, `db:migrate` and the CLI print its message alone, without a stack. */
export class DatabaseStartError extends Error {}

/** The database named by DATABASE_URL could not be read at start. */
export class DatabaseUnreachableError extends DatabaseStartError {
  constructor(provider: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] || cause.name : String(cause);
    super(`cannot read the ${provider === 'postgresql' ? 'PostgreSQL' : 'SQLite'} database DATABASE_URL names: ${reason}`, { cause });
    this.name = 'DatabaseUnreachableError';
  }
}

/** The database carries migrations newer than any this build has: a newer Toolgate migrated it. */
export class DatabaseAheadOfBuildError extends DatabaseStartError {
  constructor(
    provider: string,
    readonly migrations: string[],
  ) {
    super(
      `the ${provider === 'postgresql' ? 'PostgreSQL' : 'SQLite'} database DATABASE_URL names was migrated by a newer Toolgate ` +
        `(${migrations.length === 1 ? 'migration' : 'migrations'} ${migrations.join(', ')} not in this build); ` +
        'start that version or a newer one, or restore a backup taken before the upgrade',
    );
    this.name = 'DatabaseAheadOfBuildError';
  }
}
