// The rollup-backed dashboard counts equal the counts scanned from evidence and violations, for
// ranges on and off hour and day boundaries, every filter, both bucket sizes, and never another
// tenant's; the rollups the commit maintained equal those the migration's backfill computes.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, dbProvider } from '@/lib/db';
import { num, readBucketKey, type BucketSize, type Sql } from '@/lib/db/sql';
import { createTestTenant } from '@/lib/testing/fixtures';
import { seedEvidenceAt, type SeededRecord } from '@/lib/overview/seed-evidence-at';
import { scannedPartCounts, windowPartCounts } from '@/lib/overview/window-parts';
import { topCodesQuery, topCodesScanQuery } from '@/lib/overview/get-overview';
import {
  topViolationsQuery,
  topViolationsScanQuery,
  violationBucketsQuery,
  violationBucketsScanQuery,
} from '@/lib/violations/get-violation-stats';
import type { ViolationFilters } from '@/lib/violations/list-violations';
import { rebuildRollups } from './rebuild-rollups';
import { rollupBackfillSql } from './rollup-backfill';

const START = Date.parse('2026-11-17T00:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TOOLS = ['orders.lookup', 'payments.refund', 'mail.send'];
const KEYS = ['key_a', 'key_b', undefined];
const CODES = ['AXAG_PATTERN_MISMATCH', 'AXAG_REQUIRED_MISSING', 'AXAG_SCOPE_VIOLATION', 'AXAG_ROLE_INSUFFICIENT'];

/** About 600 records over four days, spread so that many sit on or next to hour and day limits. */
function records(salt: number): SeededRecord[] {
  const out: SeededRecord[] = [];
  for (let i = 0; i < 560; i++) {
    const at = new Date(START + i * (10 * MINUTE + 17_003) + (salt % 3) * 1000);
    const r = (i * 7 + salt) % 20;
    const tool = TOOLS[i % 3] as string;
    const apiKeyId = KEYS[(i >> 1) % 3];
    if (r < 6)
      out.push({ at, decision: 'deny', tool, apiKeyId, codes: [CODES[i % 4] as string, ...(r < 2 ? [CODES[(i + 1) % 4] as string] : [])] });
    else if (r < 8) out.push({ at, decision: 'require_approval', tool, apiKeyId, codes: ['AXAG_APPROVAL_MISSING'] });
    else if (r < 10)
      out.push({ at, kind: 'post', decision: r === 8 ? 'deny' : 'allow', tool, apiKeyId, codes: r === 8 ? ['AXAG_OUTPUT_MISMATCH'] : [] });
    else if (r === 10) out.push({ at, kind: 'approval_decision', decision: 'approved', tool, apiKeyId });
    else out.push({ at, tool, apiKeyId, shadowDiffers: r === 11 });
  }
  // Exactly on and around limits.
  for (const ms of [0, 1, 30 * MINUTE - 1, 30 * MINUTE, 30 * MINUTE + 1, HOUR - 1])
    for (const base of [START + DAY, START + 2 * DAY + 13 * HOUR, START + 3 * DAY + 5 * HOUR])
      out.push({ at: new Date(base + ms), decision: 'deny', tool: 'orders.lookup', apiKeyId: 'key_a', codes: ['AXAG_SCOPE_VIOLATION'] });
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

let tenantId: string;
let otherId: string;

beforeAll(async () => {
  tenantId = (await createTestTenant()).tenant.id;
  otherId = (await createTestTenant()).tenant.id;
  await seedEvidenceAt(tenantId, records(1));
  await seedEvidenceAt(
    otherId,
    records(2).filter((_, i) => i % 2 === 0),
  );
});

const rows = async (query: Sql, size?: BucketSize) =>
  (await db().$queryRaw<Record<string, unknown>[]>(query))
    .map((r): Record<string, unknown> => ({ ...r, ...(size ? { bucket: readBucketKey(r.bucket, size) } : {}), n: num(r.n) }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const instants = [
  '2026-11-20T12:00:00.000Z',
  '2026-11-20T12:00:00.001Z',
  '2026-11-20T12:17:00.000Z',
  '2026-11-20T12:29:59.999Z',
  '2026-11-20T12:30:00.000Z',
  '2026-11-20T12:30:00.001Z',
  '2026-11-20T12:47:31.000Z',
  '2026-11-20T12:59:59.999Z',
  '2026-11-19T05:10:00.000Z',
  '2026-11-21T00:20:00.000Z',
].map((iso) => new Date(iso));

describe('the overview from rollups', () => {
  it('counts each window exactly as a scan of the records does, wherever "now" falls in its hour', async () => {
    for (const until of instants) {
      const scanned = await scannedPartCounts(tenantId, until);
      expect(await windowPartCounts(tenantId, until), until.toISOString()).toEqual(scanned);
    }
    // The data is dense enough that every part counted something.
    expect((await scannedPartCounts(tenantId, instants[2] as Date)).every((p) => p.calls > 0 && p.refusals > 0 && p.policy > 0)).toBe(true);
  });

  it('ranks the noisiest codes as a scan does', async () => {
    for (const until of instants) {
      const since = new Date(until.getTime() - DAY);
      expect(await rows(topCodesQuery(tenantId, since, until, 50))).toEqual(
        (await rows(topCodesScanQuery(tenantId, since, until, 50))).map(({ code, n }) => ({ key: code, n })),
      );
    }
  });
});

const ranges: [string, string][] = [
  ['2026-11-17T00:00:00.000Z', '2026-11-21T00:00:00.000Z'],
  ['2026-11-17T03:29:59.999Z', '2026-11-20T17:30:00.001Z'],
  ['2026-11-18T00:00:00.001Z', '2026-11-19T23:59:59.999Z'],
  ['2026-11-19T13:00:00.000Z', '2026-11-19T13:30:00.000Z'],
  ['2026-11-19T13:10:00.000Z', '2026-11-19T15:50:00.000Z'],
  ['2026-11-18T22:40:00.000Z', '2026-11-19T01:20:00.000Z'],
];
const filterSets: ViolationFilters[] = [
  {},
  { code: 'AXAG_SCOPE_VIOLATION' },
  { tool: 'payments.refund' },
  { apiKeyId: 'key_b' },
  { tool: 'orders.lookup', apiKeyId: 'key_a' },
  { decision: 'require_approval' },
  { kind: 'policy' },
  { kind: 'arguments', tool: 'mail.send' },
];

describe('the violations chart and top lists from rollups', () => {
  it('equal a scan of the violations for every range, filter and bucket size', async () => {
    let compared = 0;
    for (const [since, until] of ranges)
      for (const filters of filterSets) {
        const f = { ...filters, since: new Date(since), until: new Date(until) };
        const label = JSON.stringify(f);
        for (const size of ['hour', 'day'] as const) {
          const scanned = await rows(violationBucketsScanQuery(tenantId, f, size), size);
          expect(await rows(violationBucketsQuery(tenantId, f, size), size), `${label} ${size}`).toEqual(scanned);
          compared += scanned.length;
        }
        for (const by of ['tool', 'apiKeyId', 'code'] as const) {
          // Ordered by the database: compared in its order, not sorted.
          const list = async (q: Sql) => (await db().$queryRaw<{ key: unknown; n: unknown }[]>(q)).map((r) => [r.key ?? null, num(r.n)]);
          expect(await list(topViolationsQuery(tenantId, f, by, 2)), `${label} ${by}`).toEqual(
            await list(topViolationsScanQuery(tenantId, f, by, 2)),
          );
          expect(await list(topViolationsQuery(tenantId, f, by, 50)), `${label} ${by}`).toEqual(
            await list(topViolationsScanQuery(tenantId, f, by, 50)),
          );
        }
      }
    expect(compared).toBeGreaterThan(500);
  });
});

describe('the backfill', () => {
  const snapshot = async (id: string) => ({
    evidence: await db().evidenceRollup.findMany({
      where: { tenantId: id },
      orderBy: [{ hour: 'asc' }, { kind: 'asc' }, { decision: 'asc' }],
    }),
    violations: await db().violationRollup.findMany({
      where: { tenantId: id },
      orderBy: [{ span: 'asc' }, { dimension: 'asc' }, { bucket: 'asc' }, { code: 'asc' }, { decision: 'asc' }, { value: 'asc' }],
    }),
  });

  it('computes the rollups the commits maintained, tenant by tenant', async () => {
    const maintained = await snapshot(tenantId);
    const other = await snapshot(otherId);
    expect(maintained.evidence.length).toBeGreaterThan(90);
    expect(maintained.violations.some((v) => v.value === '')).toBe(true);
    await rebuildRollups({ tenantId });
    expect(await snapshot(tenantId)).toEqual(maintained);
    expect(await snapshot(otherId)).toEqual(other);
  });

  it('is what the migrations ran, over every tenant at once', async () => {
    const provider = dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite';
    const dir = path.join(process.cwd(), 'prisma', provider, 'migrations');
    // The rollups by code and tool or key came with dashboard_rollups, the others after; on
    // SQLite all were computed again when timestamps became integers (their buckets too).
    const latest = provider === 'sqlite' ? ['_sqlite_integer_timestamps'] : ['_dashboard_rollups', '_violation_rollup_totals'];
    const text = readdirSync(dir)
      .filter((d) => latest.some((suffix) => d.endsWith(suffix)))
      .map((d) => readFileSync(path.join(dir, d, 'migration.sql'), 'utf8'))
      .join('\n');
    // Not the evidence rollups' statement: it reads the tenant's id through TenantKey since
    // evidence lost its tenantId column (after those migrations); what it computes is checked below.
    for (const statement of rollupBackfillSql(provider).filter((s) => !s.includes('"EvidenceRollup"'))) expect(text).toContain(statement);
    const before = [await snapshot(tenantId), await snapshot(otherId)];
    await db().$transaction(async (tx) => {
      await tx.evidenceRollup.deleteMany({ where: { tenantId: { in: [tenantId, otherId] } } });
      await tx.violationRollup.deleteMany({ where: { tenantId: { in: [tenantId, otherId] } } });
      // Only these two tenants' rows: other files' tenants share no database with this one, but stay safe.
      for (const statement of rollupBackfillSql(provider))
        await tx.$executeRawUnsafe(statement.replace(/\nGROUP BY/, `\nWHERE "tenantId" IN ('${tenantId}', '${otherId}')\nGROUP BY`));
    });
    expect([await snapshot(tenantId), await snapshot(otherId)]).toEqual(before);
  });
});
