// CPU per request of each thread of the data plane (as `npm run data-plane` runs it) under
// autocannon load, from /proc: the request thread, the evidence writer thread, V8's helper
// threads, and the load generator itself. On a shared machine req/s moves with the neighbours;
// CPU per request per thread moves much less, which is what this is for.
// usage: tsx bench/validate/thread-cpu.ts [--seconds 5] [--reps 3] [--connections 32]
//        [--provider sqlite|postgresql] [--tsx]   (NODE_EXTRA="--cpu-prof ..." adds node flags)
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import { postgresCpuMs, treeThreadCpuMs } from './proc-cpu';
import { BENCH_API_KEY, setupBenchTenant } from '../data-plane';

const root = path.resolve(import.meta.dirname, '..', '..');
const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] as string) : fallback;
};
const seconds = Number(opt('seconds', '5'));
const reps = Number(opt('reps', '3'));
const connections = Number(opt('connections', '32'));
const provider = opt('provider', 'sqlite') as 'sqlite' | 'postgresql';
const apiKey = BENCH_API_KEY;
const body = JSON.stringify({
  tool: 'orders.lookup',
  call_id: 'bench',
  arguments: { tenant_id: 'acme', order_id: 'ord_123456', include: ['items'] },
  context: { tenant_id: 'acme', user_id: 'u_1' },
});

/** CPU time (user + system, microseconds) of every thread of the server process, by thread id. */
function threadCpu(pid: number): Map<number, number> {
  const ms = treeThreadCpuMs(pid, { children: false });
  if (!ms) throw new Error('thread-cpu needs /proc');
  return new Map([...ms].map(([tid, cpu]) => [tid, cpu * 1000]));
}

const scratch = await createScratchDatabase(provider, 'threads');
setupBenchTenant(scratch.target.url);
const port = String(3490 + Math.floor(Math.random() * 9));
const extra = (process.env.NODE_EXTRA ?? '').split(' ').filter(Boolean);
// node itself (not the tsx wrapper), so that the pid is the server's and its threads are ours.
// --tsx: the sources through tsx instead of the server bundle (to price the difference).
const entry = argv.includes('--tsx') ? ['--import', 'tsx', path.join(root, 'scripts/start.ts')] : [path.join(root, 'scripts/serve.mjs')];
const server = spawn(process.execPath, [...extra, ...entry, '--data-plane'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, DATABASE_URL: scratch.target.url, PORT: port, HOSTNAME: '127.0.0.1' },
});
let output = '';
await new Promise<void>((resolve, reject) => {
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('data plane on')) resolve();
  };
  server.stdout?.on('data', onData);
  server.stderr?.on('data', onData);
  server.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output.slice(-2000)}`)));
});
const pid = server.pid as number;
const url = `http://127.0.0.1:${port}/api/v1/validate/pre`;
const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
await autocannon({ url, method: 'POST', body, headers, connections, duration: Math.min(seconds, 5) });

for (let rep = 0; rep < reps; rep++) {
  const before = threadCpu(pid);
  const clientBefore = process.cpuUsage();
  const databaseBefore = postgresCpuMs() ?? 0;
  const result = await autocannon({ url, method: 'POST', body, headers, connections, duration: seconds });
  const after = threadCpu(pid);
  const client = process.cpuUsage(clientBefore);
  const total = result.requests.total;
  const database =
    provider === 'postgresql' ? `; PostgreSQL ${((((postgresCpuMs() ?? 0) - databaseBefore) * 1000) / total).toFixed(0)}` : '';
  const used = [...after].map(([tid, cpu]) => ({ tid, us: (cpu - (before.get(tid) ?? 0)) / total })).filter((t) => t.us >= 0.5);
  const main = used.find((t) => t.tid === pid)?.us ?? 0;
  const others = used.filter((t) => t.tid !== pid).sort((a, b) => b.us - a.us);
  const all = used.reduce((sum, t) => sum + t.us, 0);
  console.log(
    `rep ${rep}: ${Math.round(total / seconds)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} errors; ` +
      `CPU us/request: all threads ${all.toFixed(0)} = request thread ${main.toFixed(0)} + ${others.map((t) => t.us.toFixed(0)).join(' + ')} ` +
      `(the largest other is the writer thread); load generator ${((client.user + client.system) / total).toFixed(0)}${database}`,
  );
}
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await scratch.drop();
