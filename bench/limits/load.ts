// The data plane under load for bench/limits: one server process serving both tenants, loaded
// with autocannon, and the CPU it used per answered request from /proc (all threads, and its
// busiest thread, the request thread), plus on PostgreSQL the CPU of the database's backends.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { treeCpuMs, treeThreadCpuMs } from '../validate/proc-cpu';
import { refundCall, TOOL } from './seed';
import { waitForLine } from '../child-process';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startDataPlane(databaseUrl: string, port: number, cpuProfDir?: string): Promise<Server> {
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const child = spawn(
    process.execPath,
    [...profile, path.join(root, 'scripts/serve.mjs'), '--data-plane', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOSTNAME: '127.0.0.1' },
    },
  );
  await waitForLine(child, /data plane on/i, 60_000);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let sequence = 0;

/** The request body of call number `i`, with a call id of its own. */
export function requestBody(i: number): string {
  return JSON.stringify({ tool: TOOL, call_id: `limits-${process.pid}-${i}`, ...refundCall(i) });
}

/** One validate/pre call, for checking the setup before loading it. */
export async function callOnce(
  server: Server,
  key: string,
): Promise<{ status: number; body: { decision?: string } & Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/v1/validate/pre`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: requestBody(sequence++),
  });
  return { status: response.status, body: (await response.json()) as { decision?: string } };
}

/** CPU (ms) of the PostgreSQL backends serving one database, by pid (the bench's own excluded). */
export async function backendCpu(client: pg.Client | null): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!client) return out;
  const { rows } = await client.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  for (const { pid } of rows) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // Exited meanwhile, or /proc is not there.
    }
  }
  return out;
}

export interface Measured {
  rps: number;
  total: number;
  errors: number;
  p50: number;
  p99: number;
  /** CPU of the data plane's process tree (all threads) per answered request, µs, less its idle CPU. */
  cpuUs: number;
  /** Of which its busiest thread (the request thread), µs, less that thread's idle CPU. */
  requestThreadUs: number;
  /** CPU of the database's PostgreSQL backends per answered request, µs (0 on SQLite). */
  databaseUs: number;
}

/** CPU (ms per second) the server uses with no calls at all (its timers: webhooks, approvals, change feed), all threads and its busiest. */
export async function idleCpu(server: Server, seconds: number): Promise<{ all: number; thread: number }> {
  const before = treeCpuMs(server.pid) ?? 0;
  const threadsBefore = treeThreadCpuMs(server.pid) ?? new Map<number, number>();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const threadsAfter = treeThreadCpuMs(server.pid) ?? new Map<number, number>();
  return {
    all: ((treeCpuMs(server.pid) ?? 0) - before) / seconds,
    thread: Math.max(0, ...[...threadsAfter].map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0))) / seconds,
  };
}

export async function load(options: {
  server: Server;
  keys: readonly string[];
  seconds: number;
  connections: number;
  pgClient: pg.Client | null;
  /** Subtracted from the CPU measured, per second of load: what the server uses without calls. */
  idle?: { all: number; thread: number };
}): Promise<Measured> {
  const { server, keys } = options;
  const started = performance.now();
  const cpuBefore = treeCpuMs(server.pid) ?? 0;
  const threadsBefore = treeThreadCpuMs(server.pid) ?? new Map<number, number>();
  const backendsBefore = await backendCpu(options.pgClient);
  const result = await autocannon({
    url: `${server.url}/api/v1/validate/pre`,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const i = sequence++;
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[i % keys.length]}` },
            body: requestBody(i),
          };
        },
      },
    ],
  });
  const cpuAfter = treeCpuMs(server.pid) ?? 0;
  const idleSeconds = (performance.now() - started) / 1000;
  const threadsAfter = treeThreadCpuMs(server.pid) ?? new Map<number, number>();
  const backendsAfter = await backendCpu(options.pgClient);
  const total = result.requests.total;
  const busiest = Math.max(0, ...[...threadsAfter].map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0)));
  let databaseMs = 0;
  for (const [pid, ms] of backendsAfter) databaseMs += ms - (backendsBefore.get(pid) ?? 0);
  const per = (ms: number) => (total > 0 ? (ms * 1000) / total : 0);
  return {
    rps: result.requests.average,
    total,
    errors: result.errors + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: per(cpuAfter - cpuBefore - (options.idle?.all ?? 0) * idleSeconds),
    requestThreadUs: per(busiest - (options.idle?.thread ?? 0) * idleSeconds),
    databaseUs: per(databaseMs),
  };
}
