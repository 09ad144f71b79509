import { db } from '../db';
import { join, num, sql, type Sql } from '../db/sql';
import { POLICY_REFUSAL_CODES, VIOLATION_KINDS, type ViolationKind } from '../violations/violation-kinds';
import { HOUR_MS, OVERVIEW_WINDOW_MS, type RefusalKindCounts, type WindowComparison, type WindowCounts } from './overview-types';
import { isSpike } from './spikes';

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

/**
 * The refusals of the same 48 hours that a rule made (a policy, a limit, a scope, a role): calls
 * denied with at least one policy code, counted once however many they have. Read from the
 * violations of the window on their (tenantId, createdAt) or (tenantId, code, createdAt) index,
 * never from the evidence itself; only validate/pre finds these codes.
 */
export function policyRefusalsQuery(tenantId: string, until: Date): Sql {
  const p = parts(until);
  return sql`SELECT CASE WHEN "createdAt" >= ${p.hourStart} THEN 0 WHEN "createdAt" >= ${p.dayStart} THEN 1
        WHEN "createdAt" >= ${p.previousHourStart} THEN 2 ELSE 3 END AS "part",
      count(DISTINCT "evidenceId") AS "n"
    FROM "Violation" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${p.previousDayStart} AND "createdAt" < ${until}
      AND "decision" = 'deny' AND "code" IN (${join([...POLICY_REFUSAL_CODES])})
    GROUP BY 1`;
}

type PartCounts = Omit<WindowCounts, 'since' | 'until'> & { shadow: number; policy: number };

const ZERO: PartCounts = { calls: 0, refusals: 0, held_for_approval: 0, post_checks: 0, post_failures: 0, shadow: 0, policy: 0 };

function add(a: PartCounts, b: PartCounts): PartCounts {
  return {
    calls: a.calls + b.calls,
    refusals: a.refusals + b.refusals,
    held_for_approval: a.held_for_approval + b.held_for_approval,
    post_checks: a.post_checks + b.post_checks,
    post_failures: a.post_failures + b.post_failures,
    shadow: a.shadow + b.shadow,
    policy: a.policy + b.policy,
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
 * The refusals and holds split by kind (lib/violations/violation-kinds.ts), each a count of
 * calls: agent mistakes and policy refusals share the denied validate/pre checks (a call denied
 * by a rule is a policy refusal whatever else was wrong with it), approval holds are the held
 * checks, tool failures the denied validate/post checks. So the four add up to the refusals,
 * holds and post-call failures of the same window.
 */
function kindCounts(c: PartCounts): Record<ViolationKind, number> {
  return { arguments: Math.max(0, c.refusals - c.policy), policy: c.policy, approval: c.held_for_approval, tool: c.post_failures };
}

function refusalKinds(hour: { current: PartCounts; previous: PartCounts }, day: { current: PartCounts; previous: PartCounts }) {
  const [hourNow, hourBefore, dayNow, dayBefore] = [hour.current, hour.previous, day.current, day.previous].map(kindCounts) as [
    Record<ViolationKind, number>,
    Record<ViolationKind, number>,
    Record<ViolationKind, number>,
    Record<ViolationKind, number>,
  ];
  return VIOLATION_KINDS.map((kind): RefusalKindCounts => ({
    kind,
    hour: { current: hourNow[kind], previous: hourBefore[kind] },
    day: { current: dayNow[kind], previous: dayBefore[kind] },
    spike: isSpike(hourNow[kind], hourBefore[kind]),
  }));
}

/**
 * The last hour against the same hour the day before, and the last 24 hours against the 24
 * before them, also split by kind; `shadowDifferences` is the last 24 hours' (the overview's tile).
 */
export async function compareWindows(options: {
  tenantId: string;
  until: Date;
}): Promise<{ hour: WindowComparison; day: WindowComparison; kinds: RefusalKindCounts[]; shadowDifferences: number }> {
  const { until } = options;
  const [rows, policyRows] = await Promise.all([
    db().$queryRaw<Record<string, unknown>[]>(windowCountsQuery(options.tenantId, until)),
    db().$queryRaw<{ part: unknown; n: unknown }[]>(policyRefusalsQuery(options.tenantId, until)),
  ]);
  const counted: PartCounts[] = [ZERO, ZERO, ZERO, ZERO];
  for (const row of rows) {
    counted[num(row.part)] = {
      calls: num(row.calls),
      refusals: num(row.refusals),
      held_for_approval: num(row.held),
      post_checks: num(row.post_checks),
      post_failures: num(row.post_failures),
      shadow: num(row.shadow),
      policy: 0,
    };
  }
  for (const row of policyRows) {
    const part = counted[num(row.part)];
    if (part) counted[num(row.part)] = { ...part, policy: num(row.n) };
  }
  const [hour, restOfDay, previousHour, restOfPreviousDay] = counted as [PartCounts, PartCounts, PartCounts, PartCounts];
  const p = parts(until);
  const day = add(hour, restOfDay);
  const dayBefore = add(previousHour, restOfPreviousDay);
  return {
    hour: {
      current: windowCounts(hour, p.hourStart, until),
      previous: windowCounts(previousHour, p.previousHourStart, p.dayStart),
    },
    day: {
      current: windowCounts(day, p.dayStart, until),
      previous: windowCounts(dayBefore, p.previousDayStart, p.dayStart),
    },
    kinds: refusalKinds({ current: hour, previous: previousHour }, { current: day, previous: dayBefore }),
    shadowDifferences: day.shadow,
  };
}
