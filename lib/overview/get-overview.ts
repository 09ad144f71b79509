import { db } from '../db';
import { join, num, sql, type Sql } from '../db/sql';
import { APPROVAL_HOLD_CODES } from '../violations/violation-kinds';
import { rollupTopQuery } from '../violations/violation-rollup-queries';
import { compareWindows } from './compare-windows';
import { checkEvidenceChainTail } from './evidence-chain-health';
import { OVERVIEW_WINDOW_MS, type Overview } from './overview-types';
import { getWebhookHealth } from './webhook-health';
import { tenantEvidence } from '../evidence/tenant-key';
import { CALL_EVIDENCE_KINDS } from '../evidence/evidence-kinds';

export { OVERVIEW_WINDOW_MS, type Overview } from './overview-types';

/** The noisiest violation codes in [since, until), approval holds left out: from the rollups (whole hours) and the violations of the partial hours. */
export function topCodesQuery(tenantId: string, since: Date, until: Date, limit: number): Sql {
  return rollupTopQuery(tenantId, { since, until }, 'code', limit, { excludeCodes: APPROVAL_HOLD_CODES, days: false }) as Sql;
}

/**
 * The same list counted from the violations alone, as before the rollups (tests compare the two).
 * Approval holds are left out: a held call is the
 * approval queue working, and they would top the list on any tenant that uses approvals. Grouped on an expression rather than the
 * column: grouping on `code` itself lets SQLite (no statistics) walk the tenant's whole
 * (tenantId, code, createdAt) index, every violation ever, to group without sorting (45 ms at
 * 205,000 violations, growing with history); this way it reads only the window on
 * (tenantId, createdAt) (4 ms for the same day).
 */
export function topCodesScanQuery(tenantId: string, since: Date, until: Date, limit: number): Sql {
  return sql`SELECT "code" || '' AS "code", count(*) AS "n"
    FROM "Violation" WHERE "tenantId" = ${tenantId} AND "createdAt" >= ${since} AND "createdAt" < ${until}
      AND "code" NOT IN (${join([...APPROVAL_HOLD_CODES])})
    GROUP BY 1 ORDER BY 2 DESC, 1 ASC LIMIT ${limit}`;
}

/**
 * "Is anything wrong right now": the last hour and the last 24 hours, each against the same
 * window a day earlier, the refusals split by kind with their spikes; approvals waiting; the noisiest codes; whether the newest evidence
 * verifies; how webhook delivery is going. The counts come from hourly rollups, plus the records
 * of at most half an hour at each window's limit (lib/overview/window-parts.ts), so a page that
 * refreshes every few seconds reads about the same at ten million records as at a thousand.
 */
export async function getOverview(options: { tenantId: string; now?: Date; topCodes?: number }): Promise<Overview> {
  const { tenantId } = options;
  const until = options.now ?? new Date();
  const since = new Date(until.getTime() - OVERVIEW_WINDOW_MS);
  const [windows, pending, topCodes, last, chain, webhooks, expiring] = await Promise.all([
    compareWindows({ tenantId, until }),
    db().approval.count({ where: { tenantId, status: 'pending', expiresAt: { gt: until } } }),
    db().$queryRaw<{ key: string; n: unknown }[]>(topCodesQuery(tenantId, since, until, options.topCodes ?? 5)),
    // The newest call: administrative records (members, settings, the purge) are no calls, and
    // would date "Last recorded call" and hide the first-call help on a tenant never called.
    tenantEvidence(tenantId).then((where) =>
      db().evidence.findFirst({
        where: { ...where, kind: { in: [...CALL_EVIDENCE_KINDS] } },
        orderBy: { seq: 'desc' },
        select: { createdAt: true },
      }),
    ),
    checkEvidenceChainTail({ tenantId, now: until }),
    getWebhookHealth({ tenantId, until }),
    db().apiKey.aggregate({
      where: {
        tenantId,
        revokedAt: null,
        expiresAt: { gt: new Date(until.getTime() - KEY_EXPIRY_NOTICE_MS), lte: new Date(until.getTime() + KEY_EXPIRY_NOTICE_MS) },
      },
      _count: { _all: true },
      _min: { expiresAt: true },
    }),
  ]);
  const day = windows.day.current;
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    calls: day.calls,
    refusals: day.refusals,
    held_for_approval: day.held_for_approval,
    shadow_differences: windows.shadowDifferences,
    pending_approvals: pending,
    top_codes: topCodes.map((c) => ({ code: c.key, count: num(c.n) })),
    refusal_kinds: windows.kinds,
    last_record_at: last?.createdAt.toISOString() ?? null,
    hour: windows.hour,
    day: windows.day,
    evidence_chain: chain,
    webhooks,
    api_keys_expiring: { count: expiring._count._all, soonest_at: expiring._min.expiresAt?.toISOString() ?? null },
  };
}

/** A key expiring within a week is announced, and one that expired in the last week still is. */
const KEY_EXPIRY_NOTICE_MS = 7 * 86_400_000;
