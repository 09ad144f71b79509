// The scale-out row of `npm run bench`: two PostgreSQL data-plane instances over one database,
// each pinned to its own core with taskset, against one instance alone on one core, with the same
// load split between them. Evidence of one tenant from both instances chains through the same
// database, so this is where a tenant-wide lock across the commit would show. The load generator
// (autocannon, in this process) and PostgreSQL's backends are not pinned: on a 2-core machine
// they share the cores with the instances, so the bench reports the load generator's CPU.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import { stopChild } from '../child-process';
import { BENCH_API_KEY, setupBenchTenant, startDataPlane } from '../data-plane';
import { postgresCpuMs, treeCpuMs } from './proc-cpu';

export interface ScaleOutOptions {
  body: string;
  distinctCallIds: boolean;
  connections: number;
  duration: number;
  rounds: number;
}

interface Round {
  rps: number;
  errors: number;
  /** CPU of the instances' process trees per answered request, µs. */
  serverUs: number;
  /** PostgreSQL's processes per answered request (NaN without /proc). */
  databaseUs: number;
  /** This process (the load generator): share of one core over the load. */
  loaderShare: number;
}

export interface ScaleOut {
  cores: string[];
  one: Round[];
  two: Round[];
}

async function loadAll(options: ScaleOutOptions, ports: number[], pids: number[], seconds: number): Promise<Round> {
  const cpuBefore = pids.map((pid) => treeCpuMs(pid) ?? 0);
  const databaseBefore = postgresCpuMs();
  const loaderBefore = process.cpuUsage();
  const started = performance.now();
  // The connections split between the instances, as a load balancer would.
  const results = await Promise.all(
    ports.map((port) =>
      autocannon({
        url: `http://127.0.0.1:${port}/api/v1/validate/pre`,
        method: 'POST',
        body: options.body,
        idReplacement: options.distinctCallIds,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_API_KEY}` },
        connections: Math.max(1, Math.round(options.connections / ports.length)),
        duration: seconds,
      }),
    ),
  );
  const wallMs = performance.now() - started;
  const loader = process.cpuUsage(loaderBefore);
  const databaseAfter = postgresCpuMs();
  const serverMs = pids.reduce((sum, pid, i) => sum + ((treeCpuMs(pid) ?? 0) - (cpuBefore[i] ?? 0)), 0);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    serverUs: total > 0 ? (serverMs * 1000) / total : NaN,
    databaseUs: total > 0 && databaseBefore !== null && databaseAfter !== null ? ((databaseAfter - databaseBefore) * 1000) / total : NaN,
    loaderShare: (loader.user + loader.system) / 1000 / wallMs,
  };
}

export async function measureScaleOut(options: ScaleOutOptions): Promise<ScaleOut> {
  const scratch = await createScratchDatabase('postgresql', 'bench_scale_out');
  const instances: ChildProcess[] = [];
  try {
    setupBenchTenant(scratch.target.url);
    const cores = ['0', '1'];
    const ports = [3450, 3451];
    for (const [i, core] of cores.entries())
      instances.push(await startDataPlane({ databaseUrl: scratch.target.url, port: ports[i] as number, core }));
    const pids = instances.map((child) => child.pid as number);
    await loadAll(options, ports, pids, Math.min(options.duration, 5));
    const one: Round[] = [];
    const two: Round[] = [];
    // Alternated, so that a slow spell on the shared machine lands on both.
    for (let round = 0; round < options.rounds; round++) {
      one.push(await loadAll(options, ports.slice(0, 1), pids.slice(0, 1), options.duration));
      two.push(await loadAll(options, ports, pids, options.duration));
    }
    return { cores, one, two };
  } finally {
    for (const child of instances) await stopChild(child);
    await scratch.drop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;

export function printScaleOut(result: ScaleOut, bareRps: number): void {
  const row = (label: string, rounds: Round[]) => {
    const rps = median(rounds.map((r) => r.rps));
    return [
      `  ${label.padEnd(46)}`,
      fmt(rps).padStart(7),
      rounds
        .map((r) => fmt(r.rps))
        .join(' / ')
        .padStart(23),
      fmt(median(rounds.map((r) => r.serverUs))).padStart(10),
      fmt(median(rounds.map((r) => r.databaseUs))).padStart(17),
      `${(median(rounds.map((r) => r.loaderShare)) * 100).toFixed(0)}%`.padStart(15),
      `${(rps / bareRps).toFixed(3)}x`.padStart(7),
      String(rounds.reduce((n, r) => n + r.errors, 0)).padStart(6),
    ].join('  ');
  };
  console.log(
    `\nScale-out on PostgreSQL: data-plane instances over one database, each pinned to a core (taskset -c ${result.cores.join(' / ')}); load generator and PostgreSQL unpinned`,
  );
  console.log(
    [
      `  ${'instances'.padEnd(46)}`,
      'req/s'.padStart(7),
      'each round'.padStart(23),
      'CPU us/req'.padStart(10),
      'PostgreSQL us/req'.padStart(17),
      'load generator'.padStart(15),
      'vs bare'.padStart(7),
      'errors',
    ].join('  '),
  );
  console.log(row('one instance (core 0)', result.one));
  console.log(row('two instances (cores 0 and 1), load split', result.two));
  const gain = median(result.two.map((r) => r.rps)) / median(result.one.map((r) => r.rps));
  console.log(`  two instances answer ${gain.toFixed(2)}x what one does (load generator: share of one core over the load)`);
}
