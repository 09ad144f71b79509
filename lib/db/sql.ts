import { dbProvider } from '../db';
import { Prisma } from '../generated/sqlite/client';

/**
 * The few places where the read queries of traces, violations and the overview differ between
 * SQLite and PostgreSQL. The queries are raw SQL because they need what Prisma's query API
 * cannot say (NOT EXISTS over the same table, time buckets, keyset conditions on two columns),
 * and because the benchmark has to EXPLAIN exactly the statement the page runs. `Prisma.sql` binds every value as a parameter.
 */
export const sql = Prisma.sql;
export const join = Prisma.join;
/** Text put into a statement as it is: only ever a constant of ours, never a value. */
export const raw = Prisma.raw;
export type Sql = Prisma.Sql;

/** Counts arrive as bigint, sums as number or null, depending on the driver. */
export function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'bigint' ? Number(value) : Number(value);
}

export function nullableNum(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

/** DateTime columns come back as Date from Prisma's raw queries on both drivers; text is a fallback. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  // SQLite's timestamps are integers (lib/db/adapter.ts); computed ones (min, max) come back bare.
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  return new Date(String(value));
}

/** SQLite stores booleans as 0/1. */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1' || value === 't';
}

export type BucketSize = 'hour' | 'day';

/**
 * A time bucket computed in the database, so counting happens there and not over raw rows in
 * JavaScript. SQLite keeps timestamps as milliseconds since the epoch (lib/db/adapter.ts), so
 * the bucket's start is integer arithmetic; PostgreSQL truncates the timestamp (date_trunc:
 * measured 3x cheaper per row than formatting it with to_char). `readBucketKey` turns either
 * into the key.
 */
export function bucketKey(column: Sql, size: BucketSize): Sql {
  if (dbProvider() === 'postgresql') return size === 'hour' ? sql`date_trunc('hour', ${column})` : sql`date_trunc('day', ${column})`;
  return size === 'hour' ? sql`(${column} / 3600000) * 3600000` : sql`(${column} / 86400000) * 86400000`;
}

export function readBucketKey(value: unknown, size: BucketSize): string {
  return typeof value === 'string' ? value : bucketKeyOf(toDate(value), size);
}

/** The start of the bucket a key names. */
export function bucketStart(key: string, size: BucketSize): Date {
  return new Date(size === 'hour' ? `${key}:00:00.000Z` : `${key}T00:00:00.000Z`);
}

/** The same key for a JavaScript date, to lay out empty buckets. */
export function bucketKeyOf(date: Date, size: BucketSize): string {
  return date.toISOString().slice(0, size === 'hour' ? 13 : 10);
}
