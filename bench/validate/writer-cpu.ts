// CPU per evidence record of the SQLite store (what the writer thread spends per record), on a
// scratch database; with --provider postgresql, of the PostgreSQL store and of PostgreSQL itself
// (every `postgres` process, from /proc), one commit at a time. Repeatable under callgrind: bench/validate/callgrind-run.sh
// bench/validate/writer-cpu.ts ... counts only the measured loop.
// Options: --records N (default 20000), --batch N (16), --prefill N rows written first (0),
//   --random-keys (a new traceId and argsHash per record, as distinct calls have; by default
//   they repeat, as in `npm run bench`), --random-trace (only the traceId), --sync FULL|NORMAL (NORMAL: no fsync, CPU only),
//   --drop-index <name> (repeatable; on the scratch database only, to price an index),
//   --pragma <text> (repeatable; on the store's connection, e.g. 'cache_size = -65536'),
//   --provider sqlite|postgresql (sqlite; --sync, --drop-index and --pragma are SQLite's).
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import { migrateDatabase } from '../../lib/db/migrate-database';
import { SqliteEvidenceStore } from '../../lib/evidence/raw-evidence-store';
import { PostgresEvidenceStore } from '../../lib/evidence/pg-evidence-store';
import type { RawEvidenceStore } from '../../lib/evidence/evidence-input';
import { postgresCpuMs } from './proc-cpu';
import type { EvidenceInput } from '../../lib/evidence/record-evidence';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] as string) : fallback;
};
const records = Number(opt('records', '20000'));
const batch = Number(opt('batch', '16'));
const prefill = Number(opt('prefill', '0'));
// --random-keys: a new traceId and argsHash per record; --random-trace: only traceId random.
const randomTrace = argv.includes('--random-keys') || argv.includes('--random-trace');
const randomArgs = argv.includes('--random-keys');
const sync = opt('sync', 'NORMAL');
const dropped = argv.flatMap((a, i) => (argv[i - 1] === '--drop-index' ? [a] : []));
const pragmas = argv.flatMap((a, i) => (argv[i - 1] === '--pragma' ? [a] : []));

const provider = opt('provider', 'sqlite') as 'sqlite' | 'postgresql';
const scratch = await createScratchDatabase(provider, 'writer');
await migrateDatabase(scratch.target.url);
const tenantId = 'cmtenant000000000000000001';
let store: RawEvidenceStore;
if (provider === 'postgresql') {
  const client = new pg.Client({ connectionString: scratch.target.url });
  await client.connect();
  await client.query(
    `INSERT INTO "Tenant" ("id", "slug", "name", "storeRawArguments", "createdAt") VALUES ($1, 'bench', 'bench', false, now())`,
    [tenantId],
  );
  await client.end();
  store = new PostgresEvidenceStore(scratch.target.url);
} else {
  const setup = new Database(scratch.target.file as string);
  setup
    .prepare(`INSERT INTO "Tenant" ("id", "slug", "name", "storeRawArguments", "createdAt") VALUES (?, 'bench', 'bench', 0, ?)`)
    .run(tenantId, Date.now());
  for (const name of dropped) setup.exec(`DROP INDEX "${name}"`);
  setup.close();
  const sqlite = new SqliteEvidenceStore(scratch.target.file as string);
  // The store sets synchronous=FULL; NORMAL leaves the fsync out of the measurement.
  const connection = (sqlite as unknown as { connection: Database.Database }).connection;
  connection.pragma(`synchronous = ${sync}`);
  for (const pragma of pragmas) connection.pragma(pragma);
  store = sqlite;
}
let n = 0;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const input = (): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: randomUUID(),
  traceId: randomTrace ? hex(16) : 'a6f0c4f1d2e3b4a5968778695a4b3c2d',
  callId: 'bench',
  w3cTraceparent: null,
  apiKeyId: 'cmkey0000000000000000000001',
  tool: 'orders.lookup',
  contractVersion: '1.0.0',
  contractHash: 'f'.repeat(64),
  argsHash: randomArgs ? hex(32) : 'e'.repeat(64),
  idempotencyKey: null,
  arguments: null,
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 0.123 + (n++ % 7),
});
const run = async (count: number) => {
  for (let i = 0; i < count; i += batch) await store.commit(Array.from({ length: Math.min(batch, count - i) }, input));
};
if (prefill > 0) await run(prefill);
await run(Math.min(5000, records));

const callgrind = (...a: string[]) =>
  process.env.CALLGRIND && spawnSync('callgrind_control', [...a, String(process.pid)], { stdio: 'ignore' });
callgrind('-i', 'on');
const before = process.cpuUsage();
const databaseBefore = postgresCpuMs() ?? 0;
const t0 = performance.now();
await run(records);
const cpu = process.cpuUsage(before);
const databaseUs = ((postgresCpuMs() ?? 0) - databaseBefore) * 1000;
callgrind('-i', 'off');
callgrind('-d');
const per = (us: number) => (us / records).toFixed(1);
console.log(
  `${provider}: ${records} records in batches of ${batch} (${randomArgs ? 'random traceId and argsHash' : randomTrace ? 'random traceId' : 'repeated keys'}, ${prefill} rows before, ${provider === 'sqlite' ? `synchronous=${sync}` : 'one commit at a time'}${dropped.length ? `, without ${dropped.join(', ')}` : ''}${pragmas.length ? `, ${pragmas.join(', ')}` : ''}): ` +
    `${per(cpu.user + cpu.system)} us CPU/record (user ${per(cpu.user)}, sys ${per(cpu.system)}), ${per((performance.now() - t0) * 1000)} us wall/record` +
    (provider === 'postgresql' ? `; PostgreSQL ${per(databaseUs)} us CPU/record` : ''),
);
await store.close();
await scratch.drop();
