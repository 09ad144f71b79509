// The tenant and data plane the HTTP benches load: one setup step and one way to start a server,
// shared by `npm run bench` (and its scale-out row), bench:evidence-size and thread-cpu.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitForLine } from './child-process';

export const BENCH_ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_TSX = path.join(BENCH_ROOT, 'node_modules', '.bin', 'tsx');
/** The operator key bench/validate/setup-tenant.ts creates (TOOLGATE_INIT_API_KEY). */
export const BENCH_API_KEY = 'tg_bench000_benchmark-key-0123456789abcdef';

/** Migrates the database and creates the bench tenant with its key and the orders.lookup contract. */
export function setupBenchTenant(databaseUrl: string): void {
  const init = spawnSync(BENCH_TSX, [path.join(BENCH_ROOT, 'bench/validate/setup-tenant.ts')], {
    cwd: BENCH_ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, TOOLGATE_INIT_TENANT: 'bench', TOOLGATE_INIT_API_KEY: BENCH_API_KEY },
  });
  if (init.status !== 0) throw new Error(`setup failed: ${init.stderr}`);
}

/** Starts `scripts/serve.mjs --data-plane` on `port` (pinned to `core` with taskset when given) and waits until it listens. */
export async function startDataPlane(options: { databaseUrl: string; port: number; core?: string }): Promise<ChildProcess> {
  const command = [
    process.execPath,
    path.join(BENCH_ROOT, 'scripts/serve.mjs'),
    '--data-plane',
    '-p',
    String(options.port),
    '-H',
    '127.0.0.1',
  ];
  const [file, ...args] = options.core === undefined ? command : ['taskset', '-c', options.core, ...command];
  const server = spawn(file as string, args, {
    cwd: BENCH_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: options.databaseUrl, PORT: String(options.port), HOSTNAME: '127.0.0.1' },
  });
  await waitForLine(server, /data plane on/i, 60_000);
  return server;
}
