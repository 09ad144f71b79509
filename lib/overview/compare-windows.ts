import { db } from '../db';
import { num, sql, type Sql } from '../db/sql';
import { HOUR_MS, OVERVIEW_WINDOW_MS, type WindowComparison, type WindowCounts } from './overview-types';

/**
 * The four parts of the 48 hours before `until`, newest first. The last hour lies inside the
 * last day, and the same hour the day before inside the day before, so a record falls in
 * exactly one part and the windows are sums of parts: hour = 0, day = 0 + 1, the hour before
 * = 2, the day before = 2 + 3.
 */
function parts(until: Date) {
  const at = (ms: number) => new Date(until.getTime() - ms);
  return {
    hourStart: at(HOUR_MS),
    dayStart: at(OVERVIEW_WINDOW_MS),
    previousHourStart: at(OVERVIEW_WINDOW_MS + HOUR_MS),
    previousDayStart: at(2 * OVERVIEW_WINDOW_MS),
  };
}

/**
 * One pass over 48 hours of the tenant's records on the (tenantId, createdAt) index, kind and
 * decision read per row and summed per part in the database: the same kind of range scan the
 * 24-hour overview always made, twice as long, instead of four scans (two of them overlapping).
 */
export function windowCountsQuery(tenantId: string, until: Date): Sql {
  const p = parts(until);
  return sql`SELECT CASE WHEN "createdAt" >= ${p.hourStart} THEN 0 WHEN "createdAt" >= ${p.dayStart} THEN 1
        WHEN "createdAt" >= ${p.previousHourStart} THEN 2 ELSE 3 END AS "part",
      sum(CASE WHEN "kind" = 'pre' THEN 1 ELSE 0 END) AS "calls",
      sum(CASE WHEN "kind" = 'pre' AND "decision" = 'deny' THEN 1 ELSE 0 END) AS "refusals",
      sum(CASE WHEN "kind" = 'pre' AND "decision" IN ('require_approval', 'escalate') THEN 1 ELSE 0 END) AS "held",
      sum(CASE WHEN "kind" = 'pre' AND "shadowDiffers" = TRUE THEN 1 ELSE 0 END) AS "shadow",
      sum(CASE WHEN "kind" = 'post' THEN 1 ELSE 0 END) AS "post_checks",
      sum(CASE WHEN "kind" = 'post' AND "decision" = 'deny' THEN 1 ELSE 0 END) AS "post_failures"
    FROM "Evidence" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${p.previousDayStart} AND "createdAt" < ${until}
      AND "kind" IN ('pre', 'post')
    GROUP BY 1`;
}

type PartCounts = Omit<WindowCounts, 'since' | 'until'> & { shadow: number };

const ZERO: PartCounts = { calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0, shadow: 0 };

function add(a: PartCounts, b: PartCounts): PartCounts {
  return {
    calls: a.calls + b.calls,
    refusals: a.refusals + b.refusals,
    held_for_approval: a.held_for_approval + b.held_for_approval,
    post_checks: a.post_checks + b.post_checks,
    post_failures: a.post_failures + b.post_failures,
    shadow: a.shadow + b.shadow,
  };
}

function windowCounts(counts: PartCounts, since: Date, until: Date): WindowCounts {
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    calls: counts.calls,
    refusals: counts.refusals,
    held_for_approval: counts.held_for_approval,
    post_checks: counts.post_checks,
    post_failures: counts.post_failures,
  };
}

/**
 * The last hour against the same hour the day before, and the last 24 hours against the 24
 * before them; `shadowDifferences` is the last 24 hours' (the overview's tile).
 */
export async function compareWindows(options: {
  tenantId: string;
  until: Date;
}): Promise<{ hour: WindowComparison; day: WindowComparison; shadowDifferences: number }> {
  const { until } = options;
  const rows = await db().$queryRaw<Record<string, unknown>[]>(windowCountsQuery(options.tenantId, until));
  const counted: PartCounts[] = [ZERO, ZERO, ZERO, ZERO];
  for (const row of rows) {
    counted[num(row.part)] = {
      calls: num(row.calls),
      refusals: num(row.refusals),
      held_for_approval: num(row.held),
      post_checks: num(row.post_checks),
      post_failures: num(row.post_failures),
      shadow: num(row.shadow),
    };
  }
  const [hour, restOfDay, previousHour, restOfPreviousDay] = counted as [PartCounts, PartCounts, PartCounts, PartCounts];
  const p = parts(until);
  const day = add(hour, restOfDay);
  return {
    hour: {
      current: windowCounts(hour, p.hourStart, until),
      previous: windowCounts(previousHour, p.previousHourStart, p.dayStart),
    },
    day: {
      current: windowCounts(day, p.dayStart, until),
      previous: windowCounts(add(previousHour, restOfPreviousDay), p.previousDayStart, p.dayStart),
    },
    shadowDifferences: day.shadow,
  };
}
