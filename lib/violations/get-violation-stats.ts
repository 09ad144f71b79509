import { violationConditions, type ViolationFilters } from './list-violations';
import { apiKeyNames } from '../auth/api-key-names';
import { rollupBucketsQuery, rollupTopQuery } from './violation-rollup-queries';
import { bucketKey, bucketKeyOf, bucketStart, join, num, readBucketKey, sql, type BucketSize, type Sql } from '../db/sql';
import { readRollups } from '../rollups/read-rollups';

/** Codes drawn in the chart; the rest are summed as "other". */
export const CHART_CODES_MAX = 8;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Up to two days are drawn hour by hour; longer ranges day by day, unless all their violations fall on one day. */
export const HOURLY_UP_TO_MS = 2 * DAY;
/** The longest range drawn hour by hour (192 bars): a week and a bit, the page's 7-day view. */
export const HOURLY_RANGE_MAX_MS = 8 * DAY;

export interface ViolationBucket {
  start: string;
  total: number;
  /** Counts per code drawn in the chart, plus `other`. */
  counts: Record<string, number>;
}

export interface ViolationStats {
  since: string;
  until: string;
  bucket: BucketSize;
  /** The codes the chart draws, noisiest first; `other` holds the rest. */
  codes: string[];
  buckets: ViolationBucket[];
  total: number;
  top_codes: { code: string; count: number }[];
  top_tools: { tool: string; count: number }[];
  top_keys: { api_key_id: string | null; api_key_name: string | null; count: number }[];
}

/** What the database counts by for a range when nobody chose: hours whenever hour bars may be drawn (day bars are then their sums). */
export function bucketSizeFor(since: Date, until: Date): BucketSize {
  return until.getTime() - since.getTime() <= HOURLY_RANGE_MAX_MS ? 'hour' : 'day';
}

/**
 * How the chart buckets a range when nobody chose: by the hour up to two days; by the day past
 * eight; in between by the day, unless every violation of the range falls on one day, where
 * day bars would draw everything as one bar (a tenant that started this morning, a quiet week
 * with one bad hour). `hours` are the hour keys that hold violations.
 */
export function defaultBucketSize(since: Date, until: Date, hours: readonly string[]): BucketSize {
  const span = until.getTime() - since.getTime();
  if (span <= HOURLY_UP_TO_MS) return 'hour';
  if (span > HOURLY_RANGE_MAX_MS) return 'day';
  return new Set(hours.map((hour) => hour.slice(0, 10))).size <= 1 ? 'hour' : 'day';
}

/** Counts per bucket and code: from the rollups where they answer the filters (violation-rollup-queries.ts), else from the violations. */
export function violationBucketsQuery(tenantId: string, filters: ViolationFilters & { since: Date; until: Date }, size: BucketSize): Sql {
  return rollupBucketsQuery(tenantId, filters, size) ?? violationBucketsScanQuery(tenantId, filters, size);
}

/** Counts per bucket and code, computed by the database from the violations' (tenantId, createdAt) range. */
export function violationBucketsScanQuery(
  tenantId: string,
  filters: ViolationFilters & { since: Date; until: Date },
  size: BucketSize,
): Sql {
  return sql`SELECT ${bucketKey(sql`v."createdAt"`, size)} AS "bucket", v."code", count(*) AS "n"
    FROM "Violation" v WHERE ${join(violationConditions(tenantId, filters), ' AND ')}
    GROUP BY 1, 2`;
}

const GROUP_COLUMNS = { code: sql`v."code"`, tool: sql`v."tool"`, apiKeyId: sql`v."apiKeyId"` } as const;

const ROLLUP_GROUPS = { code: 'code', tool: 'tool', apiKeyId: 'key' } as const;

/** The most frequent codes, tools or keys: from the rollups where they answer the filters, else from the violations. */
export function topViolationsQuery(tenantId: string, filters: ViolationFilters, by: keyof typeof GROUP_COLUMNS, limit: number): Sql {
  const { since, until } = filters;
  const rollup = since && until ? rollupTopQuery(tenantId, { ...filters, since, until }, ROLLUP_GROUPS[by], limit) : null;
  return rollup ?? topViolationsScanQuery(tenantId, filters, by, limit);
}

/** The most frequent codes, tools or keys among the matching violations, counted from the violations. */
export function topViolationsScanQuery(tenantId: string, filters: ViolationFilters, by: keyof typeof GROUP_COLUMNS, limit: number): Sql {
  const column = GROUP_COLUMNS[by];
  return sql`SELECT ${column} AS "key", count(*) AS "n"
    FROM "Violation" v WHERE ${join(violationConditions(tenantId, filters), ' AND ')}
    GROUP BY ${column} ORDER BY count(*) DESC, ${column} ASC LIMIT ${limit}`;
}

/** The chart of counts per code over time, and the top offenders, for the filtered violations in [since, until). */
export async function getViolationStats(options: {
  tenantId: string;
  filters: ViolationFilters & { since: Date; until: Date };
  /** Hour or day bars; hours only up to HOURLY_RANGE_MAX_MS. Default: defaultBucketSize. */
  bucket?: BucketSize;
  top?: number;
}): Promise<ViolationStats> {
  const { tenantId, filters } = options;
  const top = options.top ?? 10;
  const counted = options.bucket ?? bucketSizeFor(filters.since, filters.until);
  const [rawCells = [], toolRows = [], keyRows = []] = await readRollups([
    violationBucketsQuery(tenantId, filters, counted),
    topViolationsQuery(tenantId, filters, 'tool', top),
    topViolationsQuery(tenantId, filters, 'apiKeyId', top),
  ]);
  const ranks = (rows: Record<string, unknown>[]) => rows.map((r) => ({ key: (r.key as string | null) ?? null, count: num(r.n) }));
  const [topTools, topKeys] = [ranks(toolRows), ranks(keyRows)];
  const countedCells = rawCells.map((c) => ({ bucket: readBucketKey(c.bucket, counted), code: c.code as string, n: num(c.n) }));
  const size =
    options.bucket ??
    (counted === 'day'
      ? 'day'
      : defaultBucketSize(
          filters.since,
          filters.until,
          countedCells.map((c) => c.bucket),
        ));
  // An hour key starts with its day's key (2026-11-22T03, 2026-11-22).
  const cells = size === counted ? countedCells : countedCells.map((c) => ({ ...c, bucket: c.bucket.slice(0, 10) }));
  // The per-code totals are the bucket counts summed: no separate pass over the rows.
  const totals = new Map<string, number>();
  for (const cell of cells) totals.set(cell.code, (totals.get(cell.code) ?? 0) + cell.n);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const codes = ranked.slice(0, CHART_CODES_MAX).map(([code]) => code);
  const drawn = new Set(codes);

  const buckets = new Map<string, ViolationBucket>();
  for (const key of bucketKeys(filters.since, filters.until, size))
    buckets.set(key, { start: bucketStart(key, size).toISOString(), total: 0, counts: {} });
  for (const cell of cells) {
    const bucket = buckets.get(cell.bucket);
    if (!bucket) continue;
    const code = drawn.has(cell.code) ? cell.code : 'other';
    const n = cell.n;
    bucket.counts[code] = (bucket.counts[code] ?? 0) + n;
    bucket.total += n;
  }
  const names = await apiKeyNames(
    tenantId,
    topKeys.map((k) => k.key),
  );
  return {
    since: filters.since.toISOString(),
    until: filters.until.toISOString(),
    bucket: size,
    codes,
    buckets: [...buckets.values()],
    total: [...totals.values()].reduce((a, b) => a + b, 0),
    top_codes: ranked.slice(0, top).map(([code, count]) => ({ code, count })),
    top_tools: topTools.map((r) => ({ tool: r.key ?? '', count: r.count })),
    top_keys: topKeys.map((r) => ({ api_key_id: r.key, api_key_name: r.key ? (names.get(r.key) ?? null) : null, count: r.count })),
  };
}

/** Every bucket key from the one holding `since` to the one holding the last instant before `until` (at most 1000). */
export function bucketKeys(since: Date, until: Date, size: BucketSize): string[] {
  const step = size === 'hour' ? HOUR : DAY;
  const keys: string[] = [];
  for (let t = bucketStart(bucketKeyOf(since, size), size).getTime(); t < until.getTime() && keys.length < 1000; t += step)
    keys.push(bucketKeyOf(new Date(t), size));
  return keys;
}
