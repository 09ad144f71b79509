// npm run bench:dashboard: the dashboard's queries (traces, violations, overview) against
// 1,000,000 evidence rows, on a scratch SQLite file and a scratch PostgreSQL database.
// Seeds both with the same synthetic calls (~20% refused, a few held for approval, a second
// tenant beside them), then times each query through the same functions the pages call
// (median of several runs after a warm-up) and prints its plan (EXPLAIN QUERY PLAN / EXPLAIN).
// Prints figures only; nothing is asserted about time.
// Options: --rows <n> (default 1000000) --runs <n> (default 5) --only sqlite|postgresql
//          --keep (keep the databases and print where they are)
//          --sqlite-file <path> / --pg-url <url> (measure an already seeded database; no seeding)
import { ensureTenantKey, tenantEvidence } from '../../lib/evidence/tenant-key';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { createScratchDatabase, type ScratchDatabase } from '../../lib/db/scratch-database';
import { migrateDatabase } from '../../lib/db/migrate-database';
import { parseDatabaseUrl, type DatabaseProvider, type DatabaseTarget } from '../../lib/db/database-url';
import { db, disconnectDb } from '../../lib/db';
import { seqAtSql } from '../../lib/evidence/seq-at';
import { listTraces, traceRowsQuery, traceTotalsQuery, seqRangeFor, TRACE_SCAN_WINDOW } from '../../lib/traces/list-traces';
import { callPrefixQuery, searchTraceIds, tracePrefixQuery, type TraceSearchMatch } from '../../lib/traces/search-traces';
import { getTraceOrThrow, traceSeqsQuery } from '../../lib/traces/get-trace-or-throw';
import { listViolations, iterateViolations, violationsQuery } from '../../lib/violations/list-violations';
import {
  getViolationStats,
  violationBucketsQuery,
  violationBucketsScanQuery,
  topViolationsQuery,
  topViolationsScanQuery,
  bucketSizeFor,
} from '../../lib/violations/get-violation-stats';
import { getOverview, topCodesQuery, topCodesScanQuery, OVERVIEW_WINDOW_MS } from '../../lib/overview/get-overview';
import {
  policyRefusalsScanQuery,
  scannedPartCounts,
  windowCountsScanQuery,
  windowEdgesQueries,
  windowPartCounts,
  windowRollupQuery,
} from '../../lib/overview/window-parts';
import { rollupBackfillSql } from '../../lib/rollups/rollup-backfill';
import { sql, type Sql } from '../../lib/db/sql';
import { bulkWriter } from './bulk-writer';
import { generate, seedContractHashes, type SeedFacts } from './seed';
import { contractHashKeys as contractHashKeysOf } from '../../lib/evidence/stored-record';

// Loading and vacuuming millions of rows takes minutes a statement: no statement bound here
// (lib/db/postgres-session.ts). Read when the first database client is made, after this line.
process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS = '0';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 1_000_000);
const RUNS = Number(option('runs') ?? 5);
const KEEP = args.includes('--keep');
const only = option('only') as DatabaseProvider | undefined;
const DAY = 86_400_000;
const DAYS = 30;

interface Measured {
  name: string;
  ms: number;
  note: string;
  plans: string[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function seedDatabase(target: DatabaseTarget): Promise<{ tenantId: string; facts: SeedFacts; end: Date }> {
  await migrateDatabase(target.url);
  process.env.DATABASE_URL = target.url;
  const tenant = await db().tenant.create({ data: { slug: 'bench', name: 'Bench' } });
  const other = await db().tenant.create({ data: { slug: 'bench-other', name: 'Other tenant' } });
  const keys = async (tenantId: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        (
          await db().apiKey.create({
            data: {
              tenantId,
              name: `agent-${String(i + 1).padStart(2, '0')}`,
              prefix: 'tg_bench',
              hash: randomBytes(32).toString('hex'),
              scopes: 'validate',
            },
          })
        ).id,
      );
    return ids;
  };
  const end = new Date();
  const contractHashKeys = await contractHashKeysOf(seedContractHashes());
  const writer = bulkWriter(target);
  const started = performance.now();
  const facts = await generate(
    {
      tenantId: tenant.id,
      tenantKey: await ensureTenantKey(tenant.id),
      rows: ROWS,
      end,
      days: DAYS,
      seed: 42,
      apiKeyIds: await keys(tenant.id, 20),
      contractHashKeys,
    },
    (chunk) => writer.write(chunk),
  );
  // A second tenant in the same tables, so every query has to stay inside its own tenant.
  await generate(
    {
      tenantId: other.id,
      tenantKey: await ensureTenantKey(other.id),
      rows: Math.round(ROWS / 20),
      end,
      days: DAYS,
      seed: 7,
      apiKeyIds: await keys(other.id, 3),
      contractHashKeys,
    },
    (chunk) => writer.write(chunk),
  );
  await writer.close();
  // Loaded raw, around the writer: the rollups are computed afterwards, as the migration does.
  const rolling = performance.now();
  for (const statement of rollupBackfillSql(target.provider)) await db().$executeRawUnsafe(statement);
  const rollupMs = performance.now() - rolling;
  console.log(
    `  seeded ${facts.evidence.toLocaleString('en-US')} evidence rows (${facts.traces.toLocaleString('en-US')} calls), ${facts.violations.toLocaleString('en-US')} violations, ${facts.approvals.toLocaleString('en-US')} approvals (+${Math.round(ROWS / 20).toLocaleString('en-US')} rows of a second tenant) in ${((performance.now() - started) / 1000).toFixed(0)} s, rollups backfilled in ${(rollupMs / 1000).toFixed(1)} s (${(await db().evidenceRollup.count()).toLocaleString('en-US')} evidence and ${(await db().violationRollup.count()).toLocaleString('en-US')} violation rollup rows)`,
  );
  if (target.provider === 'postgresql') {
    // What autovacuum does on its own a little later: statistics, and the visibility map that
    // index-only scans rely on.
    await db().$executeRawUnsafe('VACUUM ANALYZE "Evidence"');
    await db().$executeRawUnsafe('VACUUM ANALYZE "Violation"');
    await db().$executeRawUnsafe('VACUUM ANALYZE "Approval"');
    await db().$executeRawUnsafe('VACUUM ANALYZE "EvidenceRollup"');
    await db().$executeRawUnsafe('VACUUM ANALYZE "ViolationRollup"');
  }
  return { tenantId: tenant.id, facts, end };
}

/** Probes for an existing database: the same kind of values the seeder reports. */
async function probe(): Promise<{ tenantId: string; facts: SeedFacts; end: Date }> {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: 'bench' } });
  const last = await db().evidence.findFirstOrThrow({ where: await tenantEvidence(tenant.id), orderBy: { seq: 'desc' } });
  const mid = await db().evidence.findFirstOrThrow({ where: { ...(await tenantEvidence(tenant.id)), seq: Math.floor(last.seq / 2) } });
  const approval = await db().approval.findFirst({ where: { tenantId: tenant.id, status: 'approved' } });
  const keys = await db().apiKey.findMany({ where: { tenantId: tenant.id }, orderBy: { name: 'asc' } });
  const facts: SeedFacts = {
    evidence: last.seq,
    violations: await db().violation.count({ where: { tenantId: tenant.id } }),
    approvals: await db().approval.count({ where: { tenantId: tenant.id } }),
    traces: 0,
    sample: {
      callId: mid.callId,
      traceId: mid.traceId,
      approvalTraceId: approval?.traceId ?? null,
      rareTool: 'svc07.action_39',
      rareKeyId: keys[keys.length - 1]?.id ?? '',
      commonTool: 'svc00.action_00',
    },
  };
  return { tenantId: tenant.id, facts, end: last.createdAt };
}

async function explain(provider: DatabaseProvider, query: Sql): Promise<string> {
  if (provider === 'sqlite') {
    const rows = await db().$queryRaw<{ id: number; parent: number; detail: string }[]>(sql`EXPLAIN QUERY PLAN ${query}`);
    const depth = new Map<number, number>();
    return rows
      .map((r) => {
        const d = (depth.get(Number(r.parent)) ?? -1) + 1;
        depth.set(Number(r.id), d);
        return `${'  '.repeat(d)}${r.detail}`;
      })
      .join('\n');
  }
  const rows = await db().$queryRaw<{ 'QUERY PLAN': string }[]>(sql`EXPLAIN (COSTS OFF) ${query}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

async function measure(provider: DatabaseProvider, name: string, run: () => Promise<string>, statements: Sql[] = []): Promise<Measured> {
  let note = await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    note = await run();
    times.push(performance.now() - start);
  }
  const plans: string[] = [];
  for (const statement of statements) plans.push(await explain(provider, statement));
  return { name, ms: median(times), note, plans };
}

async function benchmark(provider: DatabaseProvider, tenantId: string, facts: SeedFacts, end: Date): Promise<Measured[]> {
  const out: Measured[] = [];
  const m = async (name: string, run: () => Promise<string>, statements: Sql[] = []) => {
    out.push(await measure(provider, name, run, statements));
    process.stdout.write('.');
  };
  const rows = (n: number, what = 'rows') => `${n} ${what}`;
  const page = async (filters: Parameters<typeof listTraces>[0]['filters'], cursor?: string) => {
    const r = await listTraces({ tenantId, filters, cursor, limit: 50 });
    return { note: `${rows(r.traces.length)}${r.searched_back_to ? ' (window)' : ''}`, cursor: r.next_cursor };
  };
  const tracesStatement = (filters: Parameters<typeof traceRowsQuery>[0]['filters'], seqRange: { min?: number; max?: number } = {}) =>
    traceRowsQuery({ tenantId, filters, minSeq: seqRange.min, maxSeq: seqRange.max, limit: 50 });
  const windowed = (filters: Parameters<typeof traceRowsQuery>[0]['filters']) =>
    tracesStatement(filters, { min: facts.evidence - TRACE_SCAN_WINDOW + 1, max: facts.evidence });

  // Traces.
  const first = await listTraces({ tenantId, limit: 50 });
  await m('traces: first page (50)', async () => (await page({})).note, [
    tracesStatement({}),
    traceTotalsQuery(
      tenantId,
      first.traces.map((t) => t.trace_id),
    ),
  ]);
  await m('traces: tool (popular)', async () => (await page({ tool: facts.sample.commonTool })).note, [
    tracesStatement({ tool: facts.sample.commonTool }),
  ]);
  await m('traces: tool (rare)', async () => (await page({ tool: facts.sample.rareTool })).note, [
    tracesStatement({ tool: facts.sample.rareTool }),
  ]);
  await m('traces: tool (no such tool)', async () => (await page({ tool: 'no.such_tool' })).note, [
    tracesStatement({ tool: 'no.such_tool' }),
  ]);
  await m('traces: decision=deny', async () => (await page({ decision: 'deny' })).note, [windowed({ decision: 'deny' })]);
  await m('traces: decision=require_approval', async () => (await page({ decision: 'require_approval' })).note, [
    windowed({ decision: 'require_approval' }),
  ]);
  await m('traces: decision=escalate (none: one scan window)', async () => (await page({ decision: 'escalate' })).note, [
    windowed({ decision: 'escalate' }),
  ]);
  await m('traces: api key (rare)', async () => (await page({ apiKeyId: facts.sample.rareKeyId })).note, [
    windowed({ apiKeyId: facts.sample.rareKeyId }),
  ]);
  const daySince = new Date(end.getTime() - 15 * DAY);
  const dayUntil = new Date(end.getTime() - 14 * DAY);
  const range = (await seqRangeFor(tenantId, daySince, dayUntil)) ?? {};
  await m('traces: one day, 2 weeks ago', async () => (await page({ since: daySince, until: dayUntil })).note, [
    sql`SELECT ${seqAtSql(tenantId, daySince)}, ${seqAtSql(tenantId, dayUntil)}`,
    tracesStatement({}, range),
  ]);
  await m(
    'traces: one day + tool (rare)',
    async () => (await page({ since: daySince, until: dayUntil, tool: facts.sample.rareTool })).note,
    [tracesStatement({ tool: facts.sample.rareTool }, range)],
  );
  const searchStatement = async (search: string, match: TraceSearchMatch = 'prefix') => {
    const ids = match === 'prefix' ? await searchTraceIds(tenantId, search) : null;
    if (ids) return traceRowsQuery({ tenantId, filters: { search }, limit: 50, searchTraceIds: ids });
    const window = { minSeq: facts.evidence - TRACE_SCAN_WINDOW + 1, maxSeq: facts.evidence };
    return traceRowsQuery({ tenantId, filters: {}, ...window, limit: 50, scanSearch: { text: search, match } });
  };
  await m('traces: search call_id', async () => (await page({ search: facts.sample.callId })).note, [
    callPrefixQuery(tenantId, facts.sample.callId),
    await searchStatement(facts.sample.callId),
  ]);
  // Seeded call ids are `call-<seed>-<n>`: this prefix names about ten calls.
  const callPrefix = facts.sample.callId.slice(0, -1);
  await m('traces: search call_id prefix (~10 calls)', async () => (await page({ search: callPrefix })).note, [
    await searchStatement(callPrefix),
  ]);
  await m('traces: search call_id prefix (every call: scan window)', async () => (await page({ search: 'call-' })).note, [
    await searchStatement('call-'),
  ]);
  const prefix = facts.sample.traceId.slice(0, 6);
  await m('traces: search trace id prefix (6)', async () => (await page({ search: prefix })).note, [
    tracePrefixQuery(tenantId, prefix),
    await searchStatement(prefix),
  ]);
  const inner = facts.sample.callId.slice(5);
  await m('traces: search contains (one call: whole scan window)', async () => (await page({ search: inner, match: 'contains' })).note, [
    await searchStatement(inner, 'contains'),
  ]);
  const midSeq = Math.floor(facts.evidence / 2);
  const deep = Buffer.from(JSON.stringify([midSeq])).toString('base64url');
  await m('traces: deep page (cursor at seq 500k)', async () => (await page({}, deep)).note, [tracesStatement({}, { max: midSeq - 1 })]);
  await m('traces: shadow differences', async () => (await page({ shadowDiffers: true })).note, [windowed({ shadowDiffers: true })]);
  if (facts.sample.approvalTraceId) {
    const traceId = facts.sample.approvalTraceId;
    await m('trace detail (approval trace)', async () => `${(await getTraceOrThrow({ tenantId, traceId })).spans.length} spans`, [
      traceSeqsQuery(tenantId, traceId),
      sql`SELECT * FROM "Approval" WHERE "tenantId" = ${tenantId} AND "traceId" = ${traceId} ORDER BY "createdAt" ASC LIMIT 50`,
    ]);
  }

  // Violations.
  const week = { since: new Date(end.getTime() - 7 * DAY), until: new Date(end.getTime() + 1) };
  const vpage = async (filters: Parameters<typeof listViolations>[0]['filters'], cursor?: string) =>
    `${(await listViolations({ tenantId, filters, cursor, limit: 100 })).violations.length} rows`;
  const { tenantKey } = await tenantEvidence(tenantId);
  const vq = (filters: Parameters<typeof violationsQuery>[0]['filters'], after?: { createdAt: Date; id: string }) =>
    violationsQuery({ tenantId, tenantKey, filters, after, limit: 101 });
  await m('violations: first page (100)', () => vpage({}), [vq({})]);
  await m('violations: code', () => vpage({ code: 'AXAG_ENUM_MISMATCH' }), [vq({ code: 'AXAG_ENUM_MISMATCH' })]);
  await m('violations: code (rare)', () => vpage({ code: 'AXAG_RANGE' }), [vq({ code: 'AXAG_RANGE' })]);
  await m('violations: tool (rare)', () => vpage({ tool: facts.sample.rareTool }), [vq({ tool: facts.sample.rareTool })]);
  await m('violations: api key (rare)', () => vpage({ apiKeyId: facts.sample.rareKeyId }), [vq({ apiKeyId: facts.sample.rareKeyId })]);
  await m('violations: decision=require_approval', () => vpage({ decision: 'require_approval' }), [vq({ decision: 'require_approval' })]);
  await m('violations: code + tool + last 7 days', () => vpage({ code: 'AXAG_SCHEMA_TYPE', tool: facts.sample.commonTool, ...week }), [
    vq({ code: 'AXAG_SCHEMA_TYPE', tool: facts.sample.commonTool, ...week }),
  ]);
  const middle = await db().violation.findFirstOrThrow({
    where: { tenantId, createdAt: { lte: new Date(end.getTime() - 15 * DAY) } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const vdeep = Buffer.from(JSON.stringify([middle.createdAt.toISOString(), middle.id])).toString('base64url');
  await m('violations: deep page (cursor 15 days back)', () => vpage({}, vdeep), [vq({}, { createdAt: middle.createdAt, id: middle.id })]);
  for (const [label, days] of [
    ['24 h, hourly', 1],
    ['7 days, daily', 7],
    ['30 days, daily', 30],
  ] as const) {
    const filters = { since: new Date(end.getTime() - days * DAY), until: new Date(end.getTime() + 1) };
    await m(
      `violations: chart + top tools/keys/codes, ${label}`,
      async () => {
        const stats = await getViolationStats({ tenantId, filters });
        return `${stats.buckets.length} buckets, ${stats.total} violations`;
      },
      [
        violationBucketsQuery(tenantId, filters, bucketSizeFor(filters.since, filters.until)),
        topViolationsQuery(tenantId, filters, 'tool', 10),
        topViolationsQuery(tenantId, filters, 'apiKeyId', 10),
      ],
    );
    // Before the rollups: the same three counts scanned from the violations.
    await m(`violations: chart + top lists, ${label}, scanned (before rollups)`, async () => {
      const [cells] = await Promise.all([
        db().$queryRaw<unknown[]>(violationBucketsScanQuery(tenantId, filters, bucketSizeFor(filters.since, filters.until))),
        db().$queryRaw(topViolationsScanQuery(tenantId, filters, 'tool', 10)),
        db().$queryRaw(topViolationsScanQuery(tenantId, filters, 'apiKeyId', 10)),
      ]);
      return `${cells.length} cells`;
    });
  }
  await m('violations: CSV export, 10,000 rows', async () => {
    let n = 0;
    for await (const chunk of iterateViolations({ tenantId, max: 10_000 })) n += chunk.length;
    return `${n} rows`;
  });

  // Overview.
  const since = new Date(end.getTime() - OVERVIEW_WINDOW_MS);
  await m(
    'overview (1 h + 24 h, vs the day before)',
    async () => {
      const o = await getOverview({ tenantId, now: end });
      return `${o.calls} calls, ${o.refusals} refused, ${o.pending_approvals} pending`;
    },
    [
      windowRollupQuery(tenantId, end),
      ...Object.values(windowEdgesQueries(tenantId, end) ?? {}),
      topCodesQuery(tenantId, since, end, 5),
      sql`SELECT count(*) FROM "Approval" WHERE "tenantId" = ${tenantId} AND "status" = 'pending' AND "expiresAt" > ${end}`,
    ],
  );
  const dayBefore = (until: Date) => new Date(until.getTime() - OVERVIEW_WINDOW_MS);
  // The overview's counts alone, from rollups and scanned (before the rollups), at "now" and half an hour on.
  for (const [label, until] of [
    ['now', end],
    ['now + 30 min', new Date(end.getTime() + 1_800_000)],
  ] as const) {
    await m(`overview counts (windows + top codes), ${label}: rollups`, async () => {
      const [parts] = await Promise.all([
        windowPartCounts(tenantId, until),
        db().$queryRaw(topCodesQuery(tenantId, dayBefore(until), until, 5)),
      ]);
      return `${parts.reduce((a, p) => a + p.calls, 0)} calls in 48 h`;
    });
    await m(
      `overview counts (windows + top codes), ${label}: scanned (before rollups)`,
      async () => {
        const [parts] = await Promise.all([
          scannedPartCounts(tenantId, until),
          db().$queryRaw(topCodesScanQuery(tenantId, dayBefore(until), until, 5)),
        ]);
        return `${parts.reduce((a, p) => a + p.calls, 0)} calls in 48 h`;
      },
      label === 'now' ? [windowCountsScanQuery(tenantId, until), policyRefusalsScanQuery(tenantId, until)] : [],
    );
  }
  process.stdout.write('\n');
  return out;
}

const results = new Map<DatabaseProvider, Measured[]>();
const providers: DatabaseProvider[] = only ? [only] : ['sqlite', 'postgresql'];
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(
  `Dashboard queries with ${option('sqlite-file') || option('pg-url') ? 'the given database(s)' : `${ROWS.toLocaleString('en-US')} evidence rows`} over ${DAYS} days (${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}); median of ${RUNS} runs after a warm-up`,
);
// Other work on the machine inflates every figure; the load average says how much there was.
console.log(`load average at start: ${load()}`);
for (const provider of providers) {
  const existing = provider === 'sqlite' ? option('sqlite-file') : option('pg-url');
  let scratch: ScratchDatabase | undefined;
  let target: DatabaseTarget;
  if (existing) target = parseDatabaseUrl(provider === 'sqlite' ? `file:${existing}` : existing);
  else {
    scratch = await createScratchDatabase(provider, 'bench-dashboard');
    target = scratch.target;
  }
  console.log(`${provider}: ${existing ? `using ${target.url}` : 'seeding'}`);
  try {
    process.env.DATABASE_URL = target.url;
    if (existing) await migrateDatabase(target.url);
    const { tenantId, facts, end } = existing ? await probe() : await seedDatabase(target);
    results.set(provider, await benchmark(provider, tenantId, facts, end));
  } finally {
    await disconnectDb();
    if (scratch && KEEP) console.log(`  kept: ${scratch.target.url}`);
    else await scratch?.drop();
  }
}

console.log(`load average at end: ${load()}`);
const names = [...new Set([...results.values()].flat().map((r) => r.name))];
const header = ['query', ...providers.map((p) => `${p} ms`), 'result'];
const table = names.map((name) => {
  const cells = providers.map((p) => results.get(p)?.find((r) => r.name === name));
  return [name, ...cells.map((c) => (c ? c.ms.toFixed(c.ms < 10 ? 2 : 1) : '—')), cells.find(Boolean)?.note ?? ''];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
console.log('');
for (const row of [header, ...table])
  console.log(
    row.map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
  );
for (const provider of providers) {
  console.log(`\n=== query plans: ${provider} ===`);
  for (const r of results.get(provider) ?? []) {
    if (r.plans.length === 0) continue;
    console.log(`\n-- ${r.name}`);
    for (const plan of r.plans)
      console.log(
        plan
          .split('\n')
          .map((l) => `   ${l}`)
          .join('\n'),
      );
  }
}
