import type { EvidenceRecord, ViolationRecord } from '../evidence/chain-records';
import { POLICY_REFUSAL_CODES } from '../violations/violation-kinds';

/**
 * The dashboard's rollups (prisma/models/32-rollups.prisma) as one batch of evidence adds to
 * them: summed in memory first, so a batch costs one upsert per distinct key, not one per
 * record. The three commit paths (SQLite writer, PostgreSQL raw store, Prisma) run the
 * statements below inside the transaction that inserts the batch.
 */

export const HOUR_S = 3600;
export const DAY_S = 86_400;
/**
 * Violations are counted per hour and per day (long charts read days), by code and tool, by code
 * and key, by code alone ('code', value ''), and by tool or key alone over every code
 * ('tool_total', 'key_total', code ''). The unfiltered chart and the noisiest codes read the
 * rows by code alone, the top tools and keys without a code filter the totals: a few rows per
 * hour instead of one per code, decision and tool (243 ms for a 7-day chart at 10M rows on
 * PostgreSQL when everything read the rows by code and tool).
 */
export const VIOLATION_SPANS = [HOUR_S, DAY_S] as const;
export const VIOLATION_DIMENSIONS = ['tool', 'key', 'code', 'tool_total', 'key_total'] as const;
export type ViolationDimension = (typeof VIOLATION_DIMENSIONS)[number];

export interface EvidenceRollupDelta {
  tenantId: string;
  hour: Date;
  kind: string;
  decision: string;
  /** The evidence lane that wrote the records: each lane adds to rows of its own (readers sum). */
  lane: number;
  records: number;
  shadowDiffers: number;
  policyRefusals: number;
}

export interface ViolationRollupDelta {
  tenantId: string;
  span: number;
  dimension: ViolationDimension;
  bucket: Date;
  code: string;
  decision: string;
  /** The tool, or the API key id ('' for none: primary key columns cannot be null); '' by code alone. */
  value: string;
  lane: number;
  count: number;
}

export interface RollupDeltas {
  evidence: EvidenceRollupDelta[];
  violations: ViolationRollupDelta[];
}

const POLICY = new Set(POLICY_REFUSAL_CODES);

export function floorTo(date: Date, spanSeconds: number): Date {
  const ms = spanSeconds * 1000;
  return new Date(Math.floor(date.getTime() / ms) * ms);
}

/** What a batch adds to the rollups. */
export function rollupDeltas(
  rows: readonly (Pick<EvidenceRecord, 'id' | 'tenantId' | 'kind' | 'decision' | 'shadowDiffers' | 'createdAt'> & { lane?: number })[],
  violations: readonly Pick<ViolationRecord, 'tenantId' | 'evidenceId' | 'code' | 'tool' | 'apiKeyId' | 'decision' | 'createdAt'>[],
): RollupDeltas {
  const policyRefused = new Set<string>();
  for (const v of violations) if (v.decision === 'deny' && POLICY.has(v.code)) policyRefused.add(v.evidenceId);
  const evidence = new Map<string, EvidenceRollupDelta>();
  const laneOf = new Map<string, number>();
  for (const row of rows) {
    const lane = row.lane ?? 0;
    if (lane !== 0) laneOf.set(row.id, lane);
    const hour = floorTo(row.createdAt, HOUR_S);
    const key = `${row.tenantId}\u0000${hour.getTime()}\u0000${row.kind}\u0000${row.decision}\u0000${lane}`;
    let delta = evidence.get(key);
    if (!delta) {
      delta = {
        tenantId: row.tenantId,
        hour,
        kind: row.kind,
        decision: row.decision,
        lane,
        records: 0,
        shadowDiffers: 0,
        policyRefusals: 0,
      };
      evidence.set(key, delta);
    }
    delta.records += 1;
    if (row.shadowDiffers) delta.shadowDiffers += 1;
    if (policyRefused.has(row.id)) delta.policyRefusals += 1;
  }
  const counted = new Map<string, ViolationRollupDelta>();
  for (const v of violations) {
    const lane = laneOf.get(v.evidenceId) ?? 0;
    for (const span of VIOLATION_SPANS) {
      const bucket = floorTo(v.createdAt, span);
      for (const dimension of VIOLATION_DIMENSIONS) {
        const value = dimension === 'tool' || dimension === 'tool_total' ? v.tool : dimension === 'code' ? '' : (v.apiKeyId ?? '');
        const code = dimension === 'tool_total' || dimension === 'key_total' ? '' : v.code;
        const key = `${v.tenantId}\u0000${span}\u0000${dimension}\u0000${bucket.getTime()}\u0000${code}\u0000${v.decision}\u0000${value}\u0000${lane}`;
        const delta = counted.get(key);
        if (delta) delta.count += 1;
        else counted.set(key, { tenantId: v.tenantId, span, dimension, bucket, code, decision: v.decision, value, lane, count: 1 });
      }
    }
  }
  // In key order: writers that upsert the same rows take their locks in the same order (PostgreSQL).
  const sorted = <T>(map: Map<string, T>) => [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, v]) => v);
  return { evidence: sorted(evidence), violations: sorted(counted) };
}

export type RollupProvider = 'sqlite' | 'postgresql';

const EVIDENCE_COLUMNS = ['tenantId', 'hour', 'kind', 'decision', 'lane', 'records', 'shadowDiffers', 'policyRefusals'] as const;
const VIOLATION_COLUMNS = ['tenantId', 'span', 'dimension', 'bucket', 'code', 'decision', 'value', 'lane', 'count'] as const;

/** Each rollup table's columns, the first `keys` of them its primary key, the rest counts a batch adds. */
export const ROLLUP_COLUMNS = {
  EvidenceRollup: { columns: EVIDENCE_COLUMNS, keys: 5 },
  ViolationRollup: { columns: VIOLATION_COLUMNS, keys: 8 },
} as const;

/** Timestamps as each database stores them (as Prisma writes them: milliseconds since the epoch on SQLite, lib/db/adapter.ts). */
export function rollupTimestamp(date: Date, provider: RollupProvider): string | number {
  return provider === 'sqlite' ? date.getTime() : date.toISOString();
}

export type RollupTable = keyof typeof ROLLUP_COLUMNS;

const quote = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

/** What makes an insert into `table` an upsert: a row already there for the key adds the counts. */
export function addOnConflict(table: RollupTable): string {
  const { columns, keys } = ROLLUP_COLUMNS[table];
  const sums = columns.slice(keys).map((c) => `"${c}" = "${table}"."${c}" + excluded."${c}"`);
  return `ON CONFLICT (${quote(columns.slice(0, keys))}) DO UPDATE SET ${sums.join(', ')}`;
}

function upsertSql(provider: RollupProvider, table: RollupTable, timeColumn: string, rows: number): string {
  const { columns } = ROLLUP_COLUMNS[table];
  let n = 0;
  const placeholder = (column: string) => (provider === 'sqlite' ? '?' : column === timeColumn ? `$${++n}::timestamp(3)` : `$${++n}`);
  const tuple = () => `(${columns.map(placeholder).join(', ')})`;
  const values = Array.from({ length: rows }, tuple).join(', ');
  return `INSERT INTO "${table}" (${quote(columns)}) VALUES ${values} ${addOnConflict(table)}`;
}

/** One statement per table for up to `rows` keys: what the PostgreSQL and Prisma paths run. */
export function rollupUpserts(provider: RollupProvider, deltas: RollupDeltas): { sql: string; params: unknown[] }[] {
  const out: { sql: string; params: unknown[] }[] = [];
  // Well under either database's bound-parameter limit (SQLite's default is 32,766).
  const perStatement = 500;
  for (let i = 0; i < deltas.evidence.length; i += perStatement) {
    const chunk = deltas.evidence.slice(i, i + perStatement);
    out.push({
      sql: upsertSql(provider, 'EvidenceRollup', 'hour', chunk.length),
      params: chunk.flatMap((d) => evidenceRollupValues(d, provider)),
    });
  }
  for (let i = 0; i < deltas.violations.length; i += perStatement) {
    const chunk = deltas.violations.slice(i, i + perStatement);
    out.push({
      sql: upsertSql(provider, 'ViolationRollup', 'bucket', chunk.length),
      params: chunk.flatMap((d) => violationRollupValues(d, provider)),
    });
  }
  return out;
}

/** Single-key statements, prepared once by the SQLite writer. */
export const SQLITE_ROLLUP_UPSERT = {
  evidence: upsertSql('sqlite', 'EvidenceRollup', 'hour', 1),
  violation: upsertSql('sqlite', 'ViolationRollup', 'bucket', 1),
};

export function evidenceRollupValues(d: EvidenceRollupDelta, provider: RollupProvider): unknown[] {
  return [d.tenantId, rollupTimestamp(d.hour, provider), d.kind, d.decision, d.lane, d.records, d.shadowDiffers, d.policyRefusals];
}

export function violationRollupValues(d: ViolationRollupDelta, provider: RollupProvider): unknown[] {
  return [d.tenantId, d.span, d.dimension, rollupTimestamp(d.bucket, provider), d.code, d.decision, d.value, d.lane, d.count];
}
