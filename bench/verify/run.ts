// npm run bench:verify: GET /api/v1/evidence/verify's work at scale, side by side in one run, on
// a scratch SQLite file and a scratch PostgreSQL database: the full walk of N records (what every
// verify did before checkpoints), the incremental verify of a 1,000-record tail after a verified
// checkpoint, the same with nothing new, and a full verification run (the background job) over
// the whole chain. Records are chained and hashed exactly as the writer does (chainRecords).
// Prints figures only; nothing is asserted about time.
// Options: --rows <n> (default 200000) --tail <n> (default 1000) --runs <n> (default 5)
//          --only sqlite|postgresql
process.env.TOOLGATE_SECRET ??= 'bench-secret-that-is-long-enough-0123456789';

import { createScratchDatabase } from '../../lib/db/scratch-database';
import { migrateDatabase } from '../../lib/db/migrate-database';
import type { DatabaseProvider } from '../../lib/db/database-url';
import { db, disconnectDb } from '../../lib/db';
import type { EvidenceInput } from '../../lib/evidence/evidence-input';
import { verifyEvidence } from '../../lib/evidence/verification/verify-evidence';
import { startVerificationRun } from '../../lib/evidence/verification/verification-runs';
import { runDueVerificationRuns } from '../../lib/evidence/verification/run-verification-runs';
import { logToStderrOnly } from '../../lib/log';
import { appendChainedEvidence } from '../chained-evidence';

// Loading and vacuuming millions of rows takes minutes a statement: no statement bound here
// (lib/db/postgres-session.ts). Read when the first database client is made, after this line.
process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS = '0';
// The full walk is what this measures, at any --records: no bound on one verify's records either.
process.env.TOOLGATE_VERIFY_MAX_RECORDS = '0';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 200_000);
const TAIL = Number(option('tail') ?? 1_000);
const RUNS = Number(option('runs') ?? 5);
const only = option('only') as DatabaseProvider | undefined;

// The figures alone on stdout; the runner's log lines go to stderr.
logToStderrOnly();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A call as the gate records it: a mix of allowed and refused, errors and all. */
function input(tenantId: string, i: number): EvidenceInput {
  const refused = i % 5 === 0;
  return {
    tenantId,
    kind: 'pre',
    requestId: `req-${i}`,
    traceId: `trace-${i}`,
    callId: `call-${i}`,
    apiKeyId: `key-${i % 20}`,
    tool: `svc${i % 8}.action_${i % 40}`,
    contractVersion: '1.0.0',
    contractHash: 'c'.repeat(64),
    argsHash: (i * 2654435761).toString(16).padStart(64, '0').slice(-64),
    decision: refused ? 'deny' : 'allow',
    valid: !refused,
    errors: refused
      ? [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'order_id does not match the pattern', path: '$.order_id' }]
      : [],
    warnings: [],
    durationMs: 0.4 + (i % 7) / 10,
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function bench(provider: DatabaseProvider): Promise<string[]> {
  const scratch = await createScratchDatabase(provider, 'bench-verify');
  try {
    await migrateDatabase(scratch.target.url);
    process.env.DATABASE_URL = scratch.target.url;
    const tenant = await db().tenant.create({ data: { slug: 'bench', name: 'Bench' } });
    const tenantId = tenant.id;
    const seeded = await timed(() => appendChainedEvidence(scratch.target, tenantId, ROWS, (i) => input(tenantId, i)));
    if (provider === 'postgresql') await db().$executeRawUnsafe('VACUUM ANALYZE "Evidence"');
    // Warm-up on another tenant's small chain: the first walk of a process pays for compiling.
    const warm = await db().tenant.create({ data: { slug: 'bench-warm-up', name: 'Warm-up' } });
    await appendChainedEvidence(scratch.target, warm.id, 2_000, (i) => input(warm.id, i));
    await verifyEvidence({ tenantId: warm.id, mode: 'full', record: false });
    const lines = [`  ${provider}: seeded ${ROWS.toLocaleString('en-US')} chained records in ${(seeded.ms / 1000).toFixed(1)} s`];
    const row = (name: string, ms: number, note: string) =>
      lines.push(`  ${name.padEnd(52)} ${(ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`).padStart(10)}   ${note}`);

    // Before checkpoints, every verify was this walk.
    const full = await timed(() => verifyEvidence({ tenantId, mode: 'full', record: false }));
    // A seeded chain that does not verify stops at its first record: the figures would time nothing.
    if (!full.value.valid) throw new Error(`the seeded chain does not verify: ${JSON.stringify(full.value.firstBroken)}`);
    row(
      `full verify (${ROWS.toLocaleString('en-US')} records)`,
      full.ms,
      `${Math.round(ROWS / (full.ms / 1000)).toLocaleString('en-US')} records/s, valid=${full.value.valid}`,
    );
    // The first verify finds no checkpoint, walks everything and records one.
    const first = await timed(() => verifyEvidence({ tenantId }));
    row('first verify (no checkpoint yet: full, records one)', first.ms, `checkpoint at seq ${first.value.recordedCheckpoint?.seq}`);

    await appendChainedEvidence(scratch.target, tenantId, TAIL, (i) => input(tenantId, i));
    const tail: number[] = [];
    let covered = '';
    for (let i = 0; i < RUNS; i++) {
      // record: false keeps the checkpoint where it is, so every run reads the same tail.
      const r = await timed(() => verifyEvidence({ tenantId, record: false }));
      tail.push(r.ms);
      covered = `seq ${r.value.covered.fromSeq}-${r.value.covered.toSeq}, ${r.value.covered.checked} read, valid=${r.value.valid}`;
    }
    row(`incremental verify (${TAIL.toLocaleString('en-US')}-record tail), median of ${RUNS}`, median(tail), covered);
    await verifyEvidence({ tenantId });
    const idle: number[] = [];
    for (let i = 0; i < RUNS; i++) idle.push((await timed(() => verifyEvidence({ tenantId, record: false }))).ms);
    row(`incremental verify (nothing new), median of ${RUNS}`, median(idle), 'the checkpoint record re-hashed, the head read');

    const { run } = await startVerificationRun({ tenantId, requestedBy: 'system', runNow: false });
    const job = await timed(() => runDueVerificationRuns());
    const ended = await db().evidenceVerificationRun.findUniqueOrThrow({ where: { id: run.id } });
    row(
      `full verification run (${(ROWS + TAIL).toLocaleString('en-US')} records, background)`,
      job.ms,
      `${ended.state}, ${Math.round(ended.checked / (job.ms / 1000)).toLocaleString('en-US')} records/s, progress saved every second`,
    );
    return lines;
  } finally {
    await disconnectDb();
    await scratch.drop();
  }
}

const providers: DatabaseProvider[] = only ? [only] : ['sqlite', 'postgresql'];
const out: string[] = [];
for (const provider of providers) {
  process.stdout.write(`bench:verify on ${provider}…\n`);
  out.push(...(await bench(provider)));
}
console.log(
  `\nEvidence verification, ${ROWS.toLocaleString('en-US')} records, tail ${TAIL.toLocaleString('en-US')} (node ${process.version})`,
);
for (const line of out) console.log(line);
