import { db } from '../db';
import { join, nullableNum, raw, sql, type Sql } from '../db/sql';
import { byTenantKey } from './tenant-key';

/**
 * Where a moment falls in a tenant's evidence, found by a binary search over `seq` instead of
 * an index on (tenantId, createdAt): that index cost every record 73 bytes on SQLite (issue 19,
 * `npm run bench:evidence-size`), and seq and createdAt grow together (one writer on SQLite;
 * on PostgreSQL EvidenceSequence hands both out in one statement, createdAt never going back).
 *
 * The value is the smallest s >= 0 such that every record with seq >= s was created at or after
 * `at` and every record below it earlier: 0 when no record is older, the last seq + 1 when every
 * record is, else at most the seq of the first record at or after `at` (seqs handed out but never
 * committed leave gaps on PostgreSQL; a probe at a missing seq reads the next record). So
 * `seq >= s` and `seq < s` split the evidence at `at`. NULL when the tenant has no evidence.
 *
 * A scalar subquery, so a statement bounds its seq range by it in one round trip: a recursive
 * CTE halving [0, last seq + 1], one (tenantKey, seq) index probe per step (about 24 steps for ten
 * million records). Callers keep their createdAt condition beside the seq bound, so a record
 * whose createdAt were ever out of order (an older PostgreSQL chain written by instances with
 * skewed clocks) is left out of a window rather than counted in the wrong one.
 */
export function seqAtSql(tenantId: string, at: Date): Sql {
  // Whether the first record at or after the midpoint is recent enough (true past the last). It
  // is written into both limits: computing it once would need the recursive step to read the
  // CTE from a subquery, which neither database allows.
  const tenant = byTenantKey(tenantId);
  const reached = sql`COALESCE((SELECT "createdAt" >= ${at} FROM "Evidence" WHERE ${tenant} AND "seq" >= lo + (hi - lo) / 2 ORDER BY "seq" LIMIT 1), TRUE)`;
  return sql`(WITH RECURSIVE "half"(lo, hi) AS (
      SELECT 0, (SELECT max("seq") FROM "Evidence" WHERE ${tenant}) + 1
      UNION ALL
      SELECT CASE WHEN ${reached} THEN lo ELSE lo + (hi - lo) / 2 + 1 END,
             CASE WHEN ${reached} THEN lo + (hi - lo) / 2 ELSE hi END
      FROM "half" WHERE lo < hi
    ) SELECT lo FROM "half" WHERE lo >= hi)`;
}

/** seqAtSql for several moments in one statement (null where the tenant has no evidence). */
export async function seqsAt(tenantId: string, moments: readonly Date[]): Promise<(number | null)[]> {
  if (moments.length === 0) return [];
  const columns = moments.map((at, i) => sql`${seqAtSql(tenantId, at)} AS ${raw(`"s${i}"`)}`);
  const [row = {}] = await db().$queryRaw<Record<string, unknown>[]>(sql`SELECT ${join(columns)}`);
  return moments.map((_, i) => nullableNum(row[`s${i}`]));
}
