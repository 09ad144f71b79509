import { db } from '../db';
import { num, sql, type Sql } from '../db/sql';
import { topViolations } from '../violations/get-violation-stats';

export const OVERVIEW_WINDOW_MS = 24 * 3_600_000;

export interface Overview {
  since: string;
  until: string;
  /** validate/pre checks in the window, and how many of them were refused or held for approval. */
  calls: number;
  refusals: number;
  held_for_approval: number;
  /** Checks a shadow policy or contract version would have decided differently. */
  shadow_differences: number;
  /** Waiting for a person now (pending and not past the deadline). */
  pending_approvals: number;
  top_codes: { code: string; count: number }[];
  /** The newest evidence record of the tenant, of any age; null when nothing was ever recorded. */
  last_record_at: string | null;
}

/** One pass over the window's records: (tenantId, createdAt) range, kind and decision checked per row. */
export function overviewCountsQuery(tenantId: string, since: Date, until: Date): Sql {
  return sql`SELECT count(*) AS "calls",
      sum(CASE WHEN "decision" = 'deny' THEN 1 ELSE 0 END) AS "refusals",
      sum(CASE WHEN "decision" IN ('require_approval', 'escalate') THEN 1 ELSE 0 END) AS "held",
      sum(CASE WHEN "shadowDiffers" = TRUE THEN 1 ELSE 0 END) AS "shadow"
    FROM "Evidence" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${since} AND "createdAt" < ${until} AND "kind" = 'pre'`;
}

/** "Is anything wrong right now": the last 24 hours at a glance. */
export async function getOverview(options: { tenantId: string; now?: Date; topCodes?: number }): Promise<Overview> {
  const { tenantId } = options;
  const until = options.now ?? new Date();
  const since = new Date(until.getTime() - OVERVIEW_WINDOW_MS);
  const [counts, pending, topCodes, last] = await Promise.all([
    db().$queryRaw<Record<string, unknown>[]>(overviewCountsQuery(tenantId, since, until)),
    db().approval.count({ where: { tenantId, status: 'pending', expiresAt: { gt: until } } }),
    topViolations(tenantId, { since, until }, 'code', options.topCodes ?? 5),
    db().evidence.findFirst({ where: { tenantId }, orderBy: { seq: 'desc' }, select: { createdAt: true } }),
  ]);
  const row = counts[0] ?? {};
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    calls: num(row.calls),
    refusals: num(row.refusals),
    held_for_approval: num(row.held),
    shadow_differences: num(row.shadow),
    pending_approvals: pending,
    top_codes: topCodes.map((c) => ({ code: c.key ?? '', count: c.count })),
    last_record_at: last?.createdAt.toISOString() ?? null,
  };
}
