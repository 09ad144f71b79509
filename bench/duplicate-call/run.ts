// npm run bench:duplicate-call: what the AXAG_DUPLICATE_CALL check costs when an agent has
// repeated one call of a non-idempotent tool many times (every repetition is allowed, with a
// warning, and carries the same duplicateKey). Seeds N such records on a scratch SQLite file and
// a scratch PostgreSQL database, then times, side by side in one run, the check as it is
// (checkDuplicateCall: the newest few records of the key's index) and the statement it replaced
// (every record with the key within the window, sorted by createdAt), on the same data and index.
// Prints figures only; nothing is asserted about time.
// Options: --repeats <n> (default 100000) --runs <n> (default 9) --only sqlite|postgresql
process.env.TOOLGATE_SECRET ??= 'bench-secret-that-is-long-enough-0123456789';

import { createScratchDatabase } from '../../lib/db/scratch-database';
import { migrateDatabase } from '../../lib/db/migrate-database';
import type { DatabaseProvider } from '../../lib/db/database-url';
import { db, disconnectDb } from '../../lib/db';
import type { EvidenceInput } from '../../lib/evidence/evidence-input';
import { checkDuplicateCall } from '../../lib/validation/check-duplicate-call';
import { duplicateKeyOf } from '../../lib/validation/duplicate-key';
import { logToStderrOnly } from '../../lib/log';
import { appendChainedEvidence } from '../chained-evidence';
import { tenantEvidence } from '../../lib/evidence/tenant-key';

// Loading and vacuuming millions of rows takes minutes a statement: no statement bound here
// (lib/db/postgres-session.ts). Read when the first database client is made, after this line.
process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS = '0';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const REPEATS = Number(option('repeats') ?? 100_000);
const RUNS = Number(option('runs') ?? 9);
const only = option('only') as DatabaseProvider | undefined;
const TOOL = 'notes.append';
const ARGS_HASH = 'a'.repeat(64);
const WINDOW_SECONDS = 3_600;

logToStderrOnly();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function input(tenantId: string, i: number): EvidenceInput {
  return {
    tenantId,
    kind: 'pre',
    requestId: `req-${i}`,
    traceId: `trace-${i}`,
    callId: `call-${i}`,
    apiKeyId: null,
    tool: TOOL,
    contractVersion: '1.0.0',
    contractHash: 'c'.repeat(64),
    argsHash: ARGS_HASH,
    decision: 'allow',
    valid: true,
    errors: [],
    warnings: [],
    durationMs: 0.4,
    duplicateKey: duplicateKeyOf({ tenantId, tool: TOOL, argsHash: ARGS_HASH }),
  };
}

/** The check before 2026-11-28: every record with the key in the window, newest by createdAt. */
// The tenant by its key, as evidence names it since the tenantId column went (5138f87).
function previousStatement(tenantId: string, tenantKey: number, callId: string) {
  return db().evidence.findFirst({
    where: {
      duplicateKey: duplicateKeyOf({ tenantId, tool: TOOL, argsHash: ARGS_HASH }),
      createdAt: { gte: new Date(Date.now() - WINDOW_SECONDS * 1000) },
      tenantKey,
      callId: { not: callId },
    },
    orderBy: { createdAt: 'desc' },
    select: { callId: true, createdAt: true },
  });
}

async function timedRuns(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function bench(provider: DatabaseProvider): Promise<string[]> {
  const scratch = await createScratchDatabase(provider, 'bench-duplicate');
  try {
    await migrateDatabase(scratch.target.url);
    process.env.DATABASE_URL = scratch.target.url;
    const tenantId = (await db().tenant.create({ data: { slug: 'bench', name: 'Bench' } })).id;
    await appendChainedEvidence(scratch.target, tenantId, REPEATS, (i) => input(tenantId, i));
    if (provider === 'postgresql') await db().$executeRawUnsafe('VACUUM ANALYZE "Evidence"');
    const options = { tenantId, tool: TOOL, argsHash: ARGS_HASH, callId: 'call-new', windowSeconds: WINDOW_SECONDS };
    const found = await checkDuplicateCall(options);
    const now = await timedRuns(() => checkDuplicateCall(options));
    const { tenantKey } = await tenantEvidence(tenantId);
    const before = await timedRuns(() => previousStatement(tenantId, tenantKey, 'call-new'));
    const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);
    return [
      `  ${provider}: ${REPEATS.toLocaleString('en-US')} earlier identical calls; check names ${JSON.stringify(found?.details?.previous_call_id)}`,
      `    check as it is (newest few from the key's index)  ${fmt(now)}   median of ${RUNS}`,
      `    the statement it replaced (all with the key)      ${fmt(before)}   ${(before / now).toFixed(0)}x`,
    ];
  } finally {
    await disconnectDb();
    await scratch.drop();
  }
}

const out: string[] = [];
for (const provider of only ? [only] : (['sqlite', 'postgresql'] as DatabaseProvider[])) {
  process.stdout.write(`bench:duplicate-call on ${provider}…\n`);
  out.push(...(await bench(provider)));
}
console.log(`\nDuplicate-call check after ${REPEATS.toLocaleString('en-US')} identical calls (node ${process.version})`);
for (const line of out) console.log(line);
