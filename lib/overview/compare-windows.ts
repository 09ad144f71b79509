import { VIOLATION_KINDS, type ViolationKind } from '../violations/violation-kinds';
import { type RefusalKindCounts, type WindowComparison, type WindowCounts } from './overview-types';
import { parts, windowPartCounts, type PartCounts } from './window-parts';
import { isSpike } from './spikes';

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
  const counted = await windowPartCounts(options.tenantId, until);
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
