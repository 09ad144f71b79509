import path from 'node:path';

export type DatabaseProvider = 'sqlite' | 'postgresql';

export interface DatabaseTarget {
  provider: DatabaseProvider;
  /** For PostgreSQL the connection string; for SQLite `file:` + an absolute path. */
  url: string;
  /** SQLite only: the database file. */
  file?: string;
}

export const DEFAULT_DATABASE_URL = 'file:./data/toolgate.db';

/**
 * Reads DATABASE_URL the same way everywhere: a `postgres(ql)://` URL selects PostgreSQL,
 * anything else (`file:...` or a bare path) is an SQLite file, resolved against the working
 * directory so that every process started from the project agrees on where it is.
 */
export function parseDatabaseUrl(raw: string | undefined = DEFAULT_DATABASE_URL): DatabaseTarget {
  const value = raw.trim() || DEFAULT_DATABASE_URL;
  if (/^postgres(ql)?:\/\//i.test(value)) return { provider: 'postgresql', url: value };
  const filePart = value.replace(/^file:/, '');
  if (filePart === ':memory:') throw new Error('DATABASE_URL=:memory: is not supported: evidence must survive a restart');
  const file = path.resolve(process.cwd(), filePart);
  return { provider: 'sqlite', url: `file:${file}`, file };
}
