import { db } from '../db';
import { join, num, sql, type Sql } from '../db/sql';
import { boundaryAt, type Boundary } from '../rollups/rollup-ranges';
import { POLICY_REFUSAL_CODES } from '../violations/violation-kinds';
import { HOUR_MS, OVERVIEW_WINDOW_MS, type WindowCounts } from './overview-types';
import { readRollups } from '../rollups/read-rollups';
import { seqAtSql } from '../evidence/seq-at';
import { byTenantKey } from '../evidence/tenant-key';

/**
 * The four parts of the 48 hours before `until`, newest first. The last hour lies inside the
 * last day, and the same hour the day before inside the day before, so a record falls in
 * exactly one part and the windows are sums of parts: hour = 0, day = 0 + 1, the hour before
 * = 2, the day before = 2 + 3.
 */
export function parts(until: Date) {
  const at = (ms: number) => new Date(until.getTime() - ms);
  return {
    hourStart: at(HOUR_MS),
    dayStart: at(OVERVIEW_WINDOW_MS),
    previousHourStart: at(OVERVIEW_WINDOW_MS + HOUR_MS),
    previousDayStart: at(2 * OVERVIEW_WINDOW_MS),
  };
}

export type PartCounts = Omit<WindowCounts, 'since' | 'until'> & { shadow: number; policy: number };

export const ZERO: PartCounts = { calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0, shadow: 0, policy: 0 };

function combine(a: PartCounts, b: PartCounts, sign: number): PartCounts {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof PartCounts)[]) out[k] += sign * b[k];
  return out;
}

const POLICY_CODES = () => join([...POLICY_REFUSAL_CODES]);

/** The parts' limits, newest first: until, the hour before, the day before, and so on. */
function boundaries(until: Date): Boundary[] {
  const p = parts(until);
  return [until, p.hourStart, p.dayStart, p.previousHourStart, p.previousDayStart].map(boundaryAt);
}

/**
 * The parts' whole hours, from EvidenceRollup. All five limits lie the same distance into
 * their hours, so their anchors (boundaryAt) are whole hours apart, in the same order.
 */
export function windowRollupQuery(tenantId: string, until: Date): Sql {
  const [u, h, d, ph, pd] = boundaries(until).map((b) => b.anchor) as [Date, Date, Date, Date, Date];
  return sql`SELECT CASE WHEN "hour" >= ${h} THEN 0 WHEN "hour" >= ${d} THEN 1 WHEN "hour" >= ${ph} THEN 2 ELSE 3 END AS "part",
      sum(CASE WHEN "kind" = 'pre' THEN "records" ELSE 0 END) AS "calls",
      sum(CASE WHEN "kind" = 'pre' AND "decision" = 'deny' THEN "records" ELSE 0 END) AS "refusals",
      sum(CASE WHEN "kind" = 'pre' AND "decision" IN ('require_approval', 'escalate') THEN "records" ELSE 0 END) AS "held",
      sum(CASE WHEN "kind" = 'pre' THEN "shadowDiffers" ELSE 0 END) AS "shadow",
      sum(CASE WHEN "kind" = 'post' THEN "records" ELSE 0 END) AS "post_checks",
      sum(CASE WHEN "kind" = 'post' AND "decision" = 'deny' THEN "records" ELSE 0 END) AS "post_failures",
      sum("policyRefusals") AS "policy"
    FROM "EvidenceRollup" WHERE "tenantId" = ${tenantId} AND "hour" >= ${pd} AND "hour" < ${u}
    GROUP BY 1`;
}

const EVIDENCE_SUMS = sql`sum(CASE WHEN "kind" = 'pre' THEN 1 ELSE 0 END) AS "calls",
      sum(CASE WHEN "kind" = 'pre' AND "decision" = 'deny' THEN 1 ELSE 0 END) AS "refusals",
      sum(CASE WHEN "kind" = 'pre' AND "decision" IN ('require_approval', 'escalate') THEN 1 ELSE 0 END) AS "held",
      sum(CASE WHEN "kind" = 'pre' AND "shadowDiffers" = TRUE THEN 1 ELSE 0 END) AS "shadow",
      sum(CASE WHEN "kind" = 'post' THEN 1 ELSE 0 END) AS "post_checks",
      sum(CASE WHEN "kind" = 'post' AND "decision" = 'deny' THEN 1 ELSE 0 END) AS "post_failures"`;

/**
 * A time range of the tenant's evidence as a seq range on (tenantKey, seq) (seqAtSql), the
 * createdAt condition kept beside it.
 */
function evidenceBetween(tenantId: string, since: Date, until: Date): Sql {
  return sql`${byTenantKey(tenantId)} AND "seq" >= ${seqAtSql(tenantId, since)} AND "seq" < ${seqAtSql(tenantId, until)}
      AND "createdAt" >= ${since} AND "createdAt" < ${until}`;
}

/** The rows between each limit and its anchor (at most half an hour each): evidence by seq range, violations on (tenantId, createdAt). */
export function windowEdgesQueries(tenantId: string, until: Date): { evidence: Sql; policy: Sql } | null {
  const edges = boundaries(until).flatMap((b, i) => (b.rows ? [{ i, ...b.rows }] : []));
  if (edges.length === 0) return null;
  const evidence = edges.map(
    (e) => sql`SELECT ${e.i} AS "edge", ${EVIDENCE_SUMS} FROM "Evidence"
      WHERE ${evidenceBetween(tenantId, e.since, e.until)} AND "kind" IN ('pre', 'post')`,
  );
  const policy = edges.map(
    (e) => sql`SELECT ${e.i} AS "edge", count(DISTINCT "evidenceId") AS "policy" FROM "Violation"
      WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${e.since} AND "createdAt" < ${e.until}
        AND "decision" = 'deny' AND "code" IN (${POLICY_CODES()})`,
  );
  return { evidence: join(evidence, ' UNION ALL '), policy: join(policy, ' UNION ALL ') };
}

function readCounts(row: Record<string, unknown>): PartCounts {
  return {
    calls: num(row.calls),
    refusals: num(row.refusals),
    held_for_approval: num(row.held),
    post_checks: num(row.post_checks),
    post_failures: num(row.post_failures),
    shadow: num(row.shadow),
    policy: num(row.policy),
  };
}

/** The four parts' counts (newest first): whole hours from the rollups, the edges from the rows. */
export async function windowPartCounts(tenantId: string, until: Date): Promise<PartCounts[]> {
  const edgesSql = windowEdgesQueries(tenantId, until);
  const [rows = [], edgeRows = [], policyRows = []] = await readRollups([
    windowRollupQuery(tenantId, until),
    ...(edgesSql ? [edgesSql.evidence, edgesSql.policy] : []),
  ]);
  const counted: PartCounts[] = [ZERO, ZERO, ZERO, ZERO];
  for (const row of rows) counted[num(row.part)] = readCounts(row);
  const edges: PartCounts[] = [ZERO, ZERO, ZERO, ZERO, ZERO];
  for (const row of edgeRows) edges[num(row.edge)] = { ...readCounts(row), policy: 0 };
  for (const row of policyRows) edges[num(row.edge)] = { ...(edges[num(row.edge)] as PartCounts), policy: num(row.policy) };
  const signs = boundaries(until).map((b) => b.sign);
  // Part k lies between limits k + 1 and k: its whole hours, plus limit k's edge, less limit k + 1's.
  return counted.map((c, k) =>
    combine(combine(c, edges[k] as PartCounts, signs[k] as number), edges[k + 1] as PartCounts, -(signs[k + 1] as number)),
  );
}

/**
 * The same four parts counted from the rows alone: one pass over 48 hours of the tenant's
 * records (a seq range), and the policy refusals from the violations.
 * What windowPartCounts must always equal (tests); it reads every record of two days.
 */
export function windowCountsScanQuery(tenantId: string, until: Date): Sql {
  const p = parts(until);
  return sql`SELECT CASE WHEN "createdAt" >= ${p.hourStart} THEN 0 WHEN "createdAt" >= ${p.dayStart} THEN 1
        WHEN "createdAt" >= ${p.previousHourStart} THEN 2 ELSE 3 END AS "part", ${EVIDENCE_SUMS}
    FROM "Evidence" WHERE ${evidenceBetween(tenantId, p.previousDayStart, until)}
      AND "kind" IN ('pre', 'post')
    GROUP BY 1`;
}

export function policyRefusalsScanQuery(tenantId: string, until: Date): Sql {
  const p = parts(until);
  return sql`SELECT CASE WHEN "createdAt" >= ${p.hourStart} THEN 0 WHEN "createdAt" >= ${p.dayStart} THEN 1
        WHEN "createdAt" >= ${p.previousHourStart} THEN 2 ELSE 3 END AS "part",
      count(DISTINCT "evidenceId") AS "policy"
    FROM "Violation" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${p.previousDayStart} AND "createdAt" < ${until}
      AND "decision" = 'deny' AND "code" IN (${POLICY_CODES()})
    GROUP BY 1`;
}

export async function scannedPartCounts(tenantId: string, until: Date): Promise<PartCounts[]> {
  const [rows, policyRows] = await Promise.all([
    db().$queryRaw<Record<string, unknown>[]>(windowCountsScanQuery(tenantId, until)),
    db().$queryRaw<Record<string, unknown>[]>(policyRefusalsScanQuery(tenantId, until)),
  ]);
  const counted: PartCounts[] = [ZERO, ZERO, ZERO, ZERO];
  for (const row of rows) counted[num(row.part)] = { ...readCounts(row), policy: 0 };
  for (const row of policyRows) counted[num(row.part)] = { ...(counted[num(row.part)] as PartCounts), policy: num(row.policy) };
  return counted;
}
