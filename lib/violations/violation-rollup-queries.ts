import { bucketKey, join, sql, type BucketSize, type Sql } from '../db/sql';
import { planRange, type TimeRange } from '../rollups/rollup-ranges';
import { DAY_S, HOUR_S, type ViolationDimension } from '../rollups/rollup-rows';
import { violationConditions, type ViolationFilters } from './list-violations';

/**
 * The violations chart and top lists read from ViolationRollup (lib/rollups): whole days or
 * hours from the rollups, the partial hours at either end from the violations themselves, summed
 * in one statement. A rollup row counts by tool or by key, not both, so a list grouped by one
 * while filtered by the other (top tools of one key) has no rollup and scans the violations.
 */

type Range = ViolationFilters & { since: Date; until: Date };
type Grouped = 'tool' | 'key' | 'code';

/**
 * Which rollup rows answer a count grouped by `by` under these filters; null when none does.
 * `codes`: the count conditions on codes beyond the filters (the overview leaves approval holds out).
 */
export function rollupDimension(
  filters: ViolationFilters,
  by: Grouped | 'chart',
  codes = false,
): { dimension: ViolationDimension; value?: string } | null {
  const tool = filters.tool || undefined;
  const apiKeyId = filters.apiKeyId || undefined;
  if (tool && apiKeyId) return null;
  // The totals over every code hold no code: only a count that asks nothing of codes reads them.
  const anyCode = !codes && !filters.code && !filters.kind;
  if (by === 'tool') return apiKeyId ? null : { dimension: anyCode ? 'tool_total' : 'tool', value: tool };
  if (by === 'key') return tool ? null : { dimension: anyCode ? 'key_total' : 'key', value: apiKeyId };
  if (apiKeyId) return { dimension: 'key', value: apiKeyId };
  // Unfiltered by tool or key: the rows by code alone, far fewer than those by tool.
  return tool ? { dimension: 'tool', value: tool } : { dimension: 'code' };
}

interface Piece {
  /** The violations themselves over `range`, or rollup rows of `span` seconds. */
  span: number | null;
  range: TimeRange;
}

function pieces(filters: Range, days: boolean): Piece[] {
  const plan = planRange(filters.since, filters.until, { days });
  const out: Piece[] = [
    ...plan.rows.map((range) => ({ span: null, range })),
    ...plan.hours.map((range) => ({ span: HOUR_S, range })),
    ...plan.days.map((range) => ({ span: DAY_S, range })),
  ];
  // An empty range still needs one statement.
  return out.length > 0 ? out : [{ span: null, range: { since: filters.since, until: filters.until } }];
}

function where(
  tenantId: string,
  filters: Range,
  piece: Piece,
  dimension: { dimension: ViolationDimension; value?: string },
  extra: Sql[],
): Sql {
  if (piece.span === null)
    return join([...violationConditions(tenantId, { ...filters, since: piece.range.since, until: piece.range.until }), ...extra], ' AND ');
  // code, decision and kind read the same columns on the rollup (aliased v); tool and key are its value.
  const { code, decision, kind } = filters;
  const conditions = [
    ...violationConditions(tenantId, { code, decision, kind }),
    sql`v."span" = ${piece.span}`,
    sql`v."dimension" = ${dimension.dimension}`,
    sql`v."bucket" >= ${piece.range.since}`,
    sql`v."bucket" < ${piece.range.until}`,
    ...extra,
  ];
  if (dimension.value !== undefined) conditions.splice(2, 0, sql`v."value" = ${dimension.value}`);
  return join(conditions, ' AND ');
}

/** Counts per bucket and code; null when no rollup answers these filters. */
export function rollupBucketsQuery(tenantId: string, filters: Range, size: BucketSize): Sql | null {
  const dimension = rollupDimension(filters, 'chart');
  if (!dimension) return null;
  const branches = pieces(filters, size === 'day').map((piece) =>
    piece.span === null
      ? sql`SELECT ${bucketKey(sql`v."createdAt"`, size)} AS "bucket", v."code" AS "code", count(*) AS "n"
      FROM "Violation" v WHERE ${where(tenantId, filters, piece, dimension, [])} GROUP BY 1, 2`
      : sql`SELECT ${bucketKey(sql`v."bucket"`, size)} AS "bucket", v."code" AS "code", sum(v."count") AS "n"
      FROM "ViolationRollup" v WHERE ${where(tenantId, filters, piece, dimension, [])} GROUP BY 1, 2`,
  );
  return sql`SELECT p."bucket", p."code", sum(p."n") AS "n" FROM (${join(branches, ' UNION ALL ')}) p GROUP BY 1, 2`;
}

// Grouped on an expression, not the column: grouping on the column lets SQLite (no statistics)
// walk the tenant's whole (tenantId, tool|apiKeyId|code, createdAt) index, every violation ever,
// to group without sorting, instead of reading only the partial hour on (tenantId, createdAt).
const ROW_COLUMNS = { tool: sql`v."tool" || ''`, key: sql`v."apiKeyId" || ''`, code: sql`v."code" || ''` } as const;
const ROLLUP_COLUMNS = { tool: sql`v."value"`, key: sql`NULLIF(v."value", '')`, code: sql`v."code"` } as const;

/** The most frequent tools, keys or codes; null when no rollup answers these filters. */
export function rollupTopQuery(
  tenantId: string,
  filters: Range,
  by: Grouped,
  limit: number,
  options: { excludeCodes?: readonly string[]; days?: boolean } = {},
): Sql | null {
  const excluding = !!options.excludeCodes?.length;
  const dimension = rollupDimension(filters, by, excluding);
  if (!dimension) return null;
  const extra = excluding ? [sql`v."code" NOT IN (${join([...(options.excludeCodes ?? [])])})`] : [];
  const branches = pieces(filters, options.days ?? filters.until.getTime() - filters.since.getTime() > 2 * DAY_S * 1000).map((piece) =>
    piece.span === null
      ? sql`SELECT ${ROW_COLUMNS[by]} AS "key", count(*) AS "n" FROM "Violation" v WHERE ${where(tenantId, filters, piece, dimension, extra)} GROUP BY 1`
      : sql`SELECT ${ROLLUP_COLUMNS[by]} AS "key", sum(v."count") AS "n" FROM "ViolationRollup" v WHERE ${where(tenantId, filters, piece, dimension, extra)} GROUP BY 1`,
  );
  return sql`SELECT p."key", sum(p."n") AS "n" FROM (${join(branches, ' UNION ALL ')}) p
    GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT ${limit}`;
}
