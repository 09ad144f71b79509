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
  const problem = databaseUrlProblem(value);
  if (problem) throw new Error(problem);
  const filePart = value.replace(/^file:/, '');
  if (filePart === ':memory:') throw new Error('DATABASE_URL=:memory: is not supported: evidence must survive a restart');
  // A data file chosen at run time, not code: without the comment Next's build traced every file
  // of the project (tests, docs, the database) into each route's file list, and said so.
  const file = path.resolve(/*turbopackIgnore: true*/ process.cwd(), filePart);
  return { provider: 'sqlite', url: `file:${file}`, file };
}

/**
 * Why DATABASE_URL cannot be used, or null. A URL of another scheme (`mysql://`, a misspelt
 * `postgress://`) was read as a relative SQLite path: an empty database was made in a directory
 * named after the URL, password included, and a new demo tenant seeded in it. Only the scheme is
 * repeated, never the rest.
 */
export function databaseUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (/^postgres(ql)?:\/\//i.test(value)) return null;
  // With or without `//`: `postgresql:/host` and `sqlite:./x.db` made a directory named
  // `postgresql:` or `sqlite:.` too. One letter is a Windows drive (`C:\data\toolgate.db`).
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(value)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'file')
    return `DATABASE_URL has the scheme "${scheme.slice(0, 20)}:": use a file: path (SQLite) or a postgresql:// URL.`;
  // A query is not read for SQLite (`?mode=ro` named a file "toolgate.db?mode=ro").
  if (value.includes('?')) return 'DATABASE_URL names an SQLite file with a query (?…), which Toolgate does not read: remove it.';
  return null;
}
