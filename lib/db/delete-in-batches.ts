import { db, dbProvider } from '../db';

/**
 * Deletes the rows of `table` whose `column` is below `below`, `batchSize` rows per statement, so
 * no statement holds SQLite's write lock for long. Safe on any number of instances at once:
 * deleting a row twice deletes it once. Returns how many rows went (at most maxBatches batches).
 * `table` and `column` are our own constants, never a caller's value.
 */
export async function deleteInBatches(
  table: string,
  column: string,
  below: number,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 5_000;
  const postgres = dbProvider() === 'postgresql';
  const rowId = postgres ? 'ctid' : 'rowid';
  const statement = `DELETE FROM "${table}" WHERE ${rowId} IN (SELECT ${rowId} FROM "${table}" WHERE "${column}" < ${postgres ? '$1' : '?'} LIMIT ${batchSize})`;
  let deleted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 200); batch++) {
    const count = await db().$executeRawUnsafe(statement, below);
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
