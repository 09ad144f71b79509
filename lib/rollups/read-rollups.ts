import { db, dbProvider } from '../db';
import type { Sql } from '../db/sql';

type Rows = Record<string, unknown>[];

/**
 * Runs the statements of one dashboard count (each reads rollup rows, plus at most the partial
 * hours at a range's ends from the rows). On PostgreSQL they run in one transaction with
 * parallel workers off: these are small aggregations by design, and starting workers for each
 * cost more than it saved. At 10M evidence rows on the 2-core bench machine the violations page's
 * counts took 61 / 79 / 29 ms (24 h / 7 days / 30 days, median of 6) with the default planner
 * and 23 / 39 / 22 ms with workers off. SQLite has no parallel plans; its statements run as before.
 */
export async function readRollups(statements: Sql[]): Promise<Rows[]> {
  if (dbProvider() !== 'postgresql') return Promise.all(statements.map((statement) => db().$queryRaw<Rows>(statement)));
  const results = await db().$transaction([
    db().$executeRawUnsafe('SET LOCAL max_parallel_workers_per_gather = 0'),
    ...statements.map((statement) => db().$queryRaw<Rows>(statement)),
  ]);
  return results.slice(1) as Rows[];
}
