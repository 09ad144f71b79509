// npm run bench: validation throughput in process and over HTTP, printed as a table.
//   in process: Toolgate's compiled contract check and the full pre-call check, next to Zod 4
//               safeParse of an equivalent schema, on the same inputs;
//   over HTTP:  POST /api/v1/validate/pre with evidence committed: on the data plane (SQLite,
//               then PostgreSQL) and through a Next route handler, next to a bare node:http server
//               doing the same Ajv check without persistence, the same bare server appending
//               each request's record durably before it answers (./baseline-durable-server.ts:
//               what durability alone costs), and the SQLite data plane again with decisions
//               exported as OpenTelemetry spans to a local sink (tracing on).
//               Load from autocannon on loopback.
//   scale-out:  two PostgreSQL data-plane instances over one database, each pinned to a core,
//               against one alone (./scale-out.ts).
// Options: --duration <s> (default 10), --connections <n> (default 32), --rounds <n> (default 3),
//          --in-process-rounds <n> (default 5),
//          --distinct-call-ids (a new call_id per request, as agents send: each record then has
//          its own trace id, an insert at a random place in the trace index), --skip-http,
//          --skip-scale-out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { postgresCpuMs, treeCpuMs, treeThreadCpuMs } from './proc-cpu';
import path from 'node:path';
import autocannon from 'autocannon';
import { z } from 'zod';
import { compileContract } from '../../lib/contracts/compile-contract';
import { lookupOrderContract } from '../../lib/contracts/examples';
import { checkPreCall } from '../../lib/validation/check-pre-call';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import { startOtlpSink } from './otlp-sink';
import { stopChild, waitForLine } from '../child-process';
import { measureScaleOut, printScaleOut } from './scale-out';
import { BENCH_API_KEY, setupBenchTenant } from '../data-plane';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const duration = option('duration', 10);
const connections = option('connections', 32);
const rounds = option('rounds', 3);
const root = path.resolve(import.meta.dirname, '..', '..');

const compiled = compileContract(lookupOrderContract);
if (!compiled.ok) throw new Error('example contract does not compile');
const contract = compiled.contract;

const inputs: Record<string, unknown>[] = Array.from({ length: 1000 }, (_, i) =>
  i % 4 === 0
    ? { tenant_id: 'acme', order_id: `BAD-${i}` }
    : { tenant_id: 'acme', order_id: `ord_${String(100000 + i)}`, include: i % 3 ? ['items'] : undefined },
).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

const zodSchema = z
  .object({
    tenant_id: z.string().min(1),
    order_id: z.string().regex(/^ord_[a-z0-9]{6,24}$/),
    include: z.array(z.enum(['items', 'payments', 'shipments'])).optional(),
  })
  .strict();

function opsPerSecond(fn: (input: Record<string, unknown>) => unknown, seconds = 2): number {
  for (let i = 0; i < 20_000; i++) fn(inputs[i % inputs.length] as Record<string, unknown>);
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) fn(inputs[(count + i) % inputs.length] as Record<string, unknown>);
    count += 1000;
  }
  return count / ((performance.now() - start) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

// Rounds alternate the three, each figure the median of its rounds: Zod's rate moved by a
// quarter between single runs (0.98M-1.27M/s) where the others moved by a few percent.
const inProcessRounds = Math.max(1, option('in-process-rounds', 5));
const measured = { ajv: [] as number[], pre: [] as number[], zod: [] as number[] };
for (let round = 0; round < inProcessRounds; round++) {
  measured.ajv.push(opsPerSecond((input) => contract.checkInput(input), 1));
  measured.pre.push(opsPerSecond((input) => checkPreCall({ contract, arguments: input, context: { tenant_id: 'acme' } }), 1));
  measured.zod.push(opsPerSecond((input) => zodSchema.safeParse(input), 1));
}
const ajvOps = median(measured.ajv);
const preOps = median(measured.pre);
const zodOps = median(measured.zod);
const eachRound = (values: number[]) => `(rounds: ${values.map((v) => `${(v / 1e6).toFixed(2)}M`).join(' / ')})`;
console.log(`\nIn process (one core, 1,000 inputs, 25% invalid; median of ${inProcessRounds} alternating rounds of 1 s)`);
console.log(
  `  contract input check (Ajv):             ${fmt(ajvOps)} validations/s  (vs Zod ${(ajvOps / zodOps).toFixed(2)}x)  ${eachRound(measured.ajv)}`,
);
console.log(
  `  full pre-call check (schema+CEL+scope): ${fmt(preOps)} validations/s  (vs Zod ${(preOps / zodOps).toFixed(2)}x)  ${eachRound(measured.pre)}`,
);
console.log(`  Zod 4 safeParse, same schema:           ${fmt(zodOps)} validations/s  ${eachRound(measured.zod)}`);

if (args.includes('--skip-http')) process.exit(0);

const distinctCallIds = args.includes('--distinct-call-ids');
const body = JSON.stringify({
  tool: 'orders.lookup',
  call_id: distinctCallIds ? 'bench-[<id>]' : 'bench',
  arguments: { tenant_id: 'acme', order_id: 'ord_123456', include: ['items'] },
  context: { tenant_id: 'acme', user_id: 'u_1' },
});

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
  /** CPU the server's process tree used per answered request (all threads), when /proc exists. */
  cpuUsPerRequest: number | null;
  /** Of which the busiest thread (the request thread of a Node server). */
  mainThreadUsPerRequest: number | null;
  /** PostgreSQL's processes per answered request: the database's share, outside the server's tree. */
  databaseUsPerRequest: number | null;
  /** This process (autocannon) per answered request. */
  loaderUsPerRequest: number;
}

async function load(url: string, headers: Record<string, string>, serverPid: number | undefined, seconds = duration): Promise<Measured> {
  const before = serverPid ? treeCpuMs(serverPid) : null;
  const threadsBefore = serverPid ? treeThreadCpuMs(serverPid) : null;
  const databaseBefore = postgresCpuMs();
  const loaderBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    method: 'POST',
    body,
    idReplacement: distinctCallIds,
    headers: { 'content-type': 'application/json', ...headers },
    connections,
    duration: seconds,
  });
  const after = serverPid ? treeCpuMs(serverPid) : null;
  const threadsAfter = serverPid ? treeThreadCpuMs(serverPid) : null;
  const databaseAfter = postgresCpuMs();
  const loader = process.cpuUsage(loaderBefore);
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    total,
    cpuUsPerRequest: before !== null && after !== null && total > 0 ? ((after - before) * 1000) / total : null,
    mainThreadUsPerRequest:
      threadsBefore && threadsAfter && total > 0
        ? (Math.max(0, ...[...threadsAfter].map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0))) * 1000) / total
        : null,
    databaseUsPerRequest:
      databaseBefore !== null && databaseAfter !== null && total > 0 ? ((databaseAfter - databaseBefore) * 1000) / total : null,
    loaderUsPerRequest: total > 0 ? (loader.user + loader.system) / total : NaN,
  };
}

if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  console.log('building the app for the HTTP benchmark...');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) process.exit(1);
}

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  pid: number | undefined;
  stop: () => Promise<void>;
  rounds: Measured[];
  /** Whether its evidence goes to PostgreSQL, whose CPU is then part of the path's cost. */
  usesPostgres: boolean;
  /** Requests answered over every load, the warm-up included: what the tracing row exports spans for. */
  answered: number;
}

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const apiKey = BENCH_API_KEY;
const targets: Target[] = [];

/** A yardstick server (prints its port first): loaded like the others, no API key. */
async function startYardstick(label: string, args: string[], cleanup = () => {}): Promise<void> {
  const child = spawn(tsx, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForLine(child, /^(\d+)\n/m, 30_000);
  targets.push({
    label,
    url: `http://127.0.0.1:${port}/`,
    headers: {},
    pid: child.pid,
    stop: async () => {
      await stopChild(child);
      cleanup();
    },
    rounds: [],
    usesPostgres: false,
    answered: 0,
  });
}

// Every server is started first and stays up; the rounds then load them in turn, so a slow
// spell on this shared machine lands on all of them rather than on one row.
await startYardstick('bare node:http + Ajv, no persistence', [path.join(root, 'bench/validate/baseline-server.ts')]);

// The bare server again, answering each request only once its record is committed and fsynced
// (SQLite WAL, group commit on a thread of its own, hash-chained): the durable yardstick.
const durableDir = mkdtempSync(path.join(tmpdir(), 'toolgate-durable-'));
const durableLabel = 'bare node:http + Ajv + durable append (SQLite WAL, fsync per group, hash chain)';
await startYardstick(
  durableLabel,
  [path.join(root, 'bench/validate/baseline-durable-server.ts'), path.join(durableDir, 'evidence.db')],
  () => rmSync(durableDir, { recursive: true, force: true }),
);

// Tracing on: the SQLite data plane exporting every decision over OTLP/HTTP (lib/telemetry).
const sink = await startOtlpSink();
const tracingLabel = 'data plane, evidence on SQLite, tracing on (OTLP/HTTP to a local sink)';
const servers: { label: string; provider: 'sqlite' | 'postgresql'; command: string[]; env?: Record<string, string> }[] = [
  {
    label: 'data plane (node:http + shared handlers), evidence on SQLite',
    provider: 'sqlite',
    command: [process.execPath, path.join(root, 'scripts/serve.mjs'), '--data-plane'],
  },
  {
    label: tracingLabel,
    provider: 'sqlite',
    command: [process.execPath, path.join(root, 'scripts/serve.mjs'), '--data-plane'],
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
  },
  {
    label: 'data plane (node:http + shared handlers), evidence on PostgreSQL',
    provider: 'postgresql',
    command: [process.execPath, path.join(root, 'scripts/serve.mjs'), '--data-plane'],
  },
  {
    label: 'Next route handler (next start), evidence on SQLite',
    provider: 'sqlite',
    command: [process.execPath, path.join(root, 'node_modules/next/dist/bin/next'), 'start'],
  },
];
try {
  for (const [index, spec] of servers.entries()) {
    const scratch = await createScratchDatabase(spec.provider, 'bench');
    const appPort = String(3400 + index);
    setupBenchTenant(scratch.target.url);
    const [command, ...commandArgs] = spec.command as [string, ...string[]];
    const server = spawn(command, [...commandArgs, '-p', appPort, '-H', '127.0.0.1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: scratch.target.url,
        PORT: appPort,
        HOSTNAME: '127.0.0.1',
        NEXT_TELEMETRY_DISABLED: '1',
        ...spec.env,
      },
    });
    targets.push({
      label: spec.label,
      url: `http://127.0.0.1:${appPort}/api/v1/validate/pre`,
      headers: { authorization: `Bearer ${apiKey}` },
      pid: server.pid,
      stop: async () => {
        await stopChild(server);
        await scratch.drop();
      },
      rounds: [],
      usesPostgres: spec.provider === 'postgresql',
      answered: 0,
    });
    await waitForLine(server, /Ready in|data plane on|Local:/i, 60_000);
  }

  // Warm-up: JIT, caches, connections, for every server alike.
  for (const target of targets) target.answered += (await load(target.url, target.headers, undefined, Math.min(duration, 5))).total;
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const measured = await load(target.url, target.headers, target.pid);
      target.rounds.push(measured);
      target.answered += measured.total;
    }
  }
} finally {
  // Stopping a server exports the spans still queued.
  for (const target of targets) await target.stop();
  await sink.close();
}

function median(values: number[]): number {
  return [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
}
const summary = targets.map((t) => {
  const byRps = [...t.rounds].sort((x, y) => x.rps - y.rps);
  const mid = byRps[Math.floor(byRps.length / 2)] as Measured;
  const cpu = t.rounds.map((r) => r.cpuUsPerRequest).filter((c): c is number => c !== null);
  const mainCpu = t.rounds.map((r) => r.mainThreadUsPerRequest).filter((c): c is number => c !== null);
  const databaseCpu = t.rounds.map((r) => r.databaseUsPerRequest).filter((c): c is number => c !== null);
  const database = t.usesPostgres && databaseCpu.length ? median(databaseCpu) : null;
  const loader = median(t.rounds.map((r) => r.loaderUsPerRequest));
  // Everything the machine spends on one answered request: the server, its database, the load generator.
  const whole = cpu.length ? median(cpu) + (database ?? 0) + loader : null;
  return {
    label: t.label,
    mid,
    rpsAll: t.rounds.map((r) => r.rps),
    cpu: cpu.length ? median(cpu) : null,
    mainCpu: mainCpu.length ? median(mainCpu) : null,
    database,
    loader,
    whole,
    errors: t.rounds.reduce((n, r) => n + r.errors, 0),
  };
});
const bare = summary[0] as (typeof summary)[number];
const cores = availableParallelism();
/** The req/s at which a path costing `wholeUs` of CPU per request would fill every core of this machine. */
const ceiling = (wholeUs: number) => (cores * 1e6) / wholeUs;
const rows = summary.map((s) => [
  s.label,
  fmt(s.mid.rps),
  s.rpsAll.map((r) => fmt(r)).join(' / '),
  `${s.mid.p50}`,
  `${s.mid.p99}`,
  s.cpu === null ? 'n/a' : fmt(s.cpu),
  s.mainCpu === null ? 'n/a' : fmt(s.mainCpu),
  `${(s.mid.rps / bare.mid.rps).toFixed(3)}x`,
  s.database === null ? '-' : fmt(s.database),
  fmt(s.loader),
  s.whole === null ? 'n/a' : `${fmt(ceiling(s.whole))} (${(ceiling(s.whole) / bare.mid.rps).toFixed(2)}x)`,
  String(s.errors),
]);

console.log(
  `\nOver HTTP (autocannon, ${connections} connections, ${rounds} rounds of ${duration}s, ${Buffer.byteLength(body)}-byte body${distinctCallIds ? ' with a new call_id per request' : ''}, loopback; median round)`,
);
// CPU per answered request, medians over the rounds: all threads of the server's process tree,
// and its busiest thread alone (the request thread; the SQLite data plane's evidence writer
// thread and V8's helpers are in the first figure only). PostgreSQL's processes are not in the
// server's tree: their CPU per request is a column of its own, read from every `postgres` process.
const header = [
  'server',
  'req/s',
  'each round',
  'p50 ms',
  'p99 ms',
  'CPU us/req',
  'busiest thread',
  'vs bare',
  'PostgreSQL us/req',
  'load gen us/req',
  `CPU ceiling, ${cores} cores`,
  'errors',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')}`;
console.log(line(header));
for (const r of rows) console.log(line(r));
// What the ratios can reach here: the server, PostgreSQL (the PostgreSQL rows) and autocannon
// share this machine's cores, so no row can answer faster than all of them spend per request
// allows, whatever it waits on. A goal above a row's ceiling needs less CPU per request, not
// less waiting.
console.log(
  `  CPU ceiling: the req/s at which server + PostgreSQL + load generator, at their CPU per request, would fill all ${cores} cores (vs the bare server's req/s)`,
);
// The goals are against the bare server, which keeps nothing; against the durable yardstick,
// which makes the same promise (a committed record before every answer) with nothing else, the
// ratios say how much of the gap is Toolgate's own work and how much is durability's.
const durableRow = summary.find((s) => s.label === durableLabel);
if (durableRow) {
  console.log(
    `\n  durable yardstick: ${fmt(durableRow.mid.rps)} req/s, ${(durableRow.mid.rps / bare.mid.rps).toFixed(3)}x the bare server; against it: ${summary
      .filter((s) => s.label.startsWith('data plane') || s.label.startsWith('Next'))
      .map((s) => `${s.label.replace(/ \(.*?\)|, evidence/g, '')} ${(s.mid.rps / durableRow.mid.rps).toFixed(3)}x`)
      .join('; ')}`,
  );
}
const traced = targets.find((t) => t.label === tracingLabel);
if (traced) {
  // autocannon leaves out the requests still in flight when a load ends (up to one per connection
  // per load); the server answers them and exports their spans all the same.
  console.log(
    `\n  tracing on: ${fmt(sink.spans())} spans reached the sink; autocannon counted ${fmt(traced.answered)} answers (less those in flight at each load's end)`,
  );
}

if (!args.includes('--skip-scale-out')) {
  const scaleOut = await measureScaleOut({ body, distinctCallIds, connections, duration, rounds });
  printScaleOut(scaleOut, bare.mid.rps);
}
