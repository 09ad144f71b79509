// npm run bench:mcp: the latency the hosted MCP gateway adds to a tools/call. The same call,
// `tools/call echo {text: "hello"}`, is made with the SDK's Client over Streamable HTTP
//   directly:  to the fixture upstream (lib/mcp/testing, in this process, JSON answers), and
//   gateway:   through the data plane's /api/v1/mcp/fx in front of that same upstream, with the
//              agent's API key, evidence committed on SQLite (pre and post per call).
// The data plane runs in a process of its own (as bench/validate starts it), so the load
// generator does not share its event loop. Calls are sequential, one at a time, in alternating
// blocks of direct and gateway calls, so a slow spell on this shared machine lands on both.
// Options: --calls <n> per side (default 2000), --warmup <n> per side (default 200),
//          --block <n> calls per block (default 100), --cpu-prof <dir> (profile the data plane).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import { startFixtureHttpServer } from '../../lib/mcp/testing/fixture-server-http';
import { DEFAULT_FIXTURE_TOOLS, writeFixtureTools } from '../../lib/mcp/testing/fixture-tools';
import { treeCpuMs, treeThreadCpuMs } from '../validate/proc-cpu';
import { waitForLine } from '../child-process';

const args = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
}
const calls = Math.max(1, option('calls', 2000));
const warmup = option('warmup', 200);
const block = Math.max(1, option('block', 100));
const profileIndex = args.indexOf('--cpu-prof');
const profileArg = profileIndex >= 0 ? args[profileIndex + 1] : undefined;
const profileDir = profileIndex < 0 ? null : path.resolve(profileArg && !profileArg.startsWith('--') ? profileArg : 'cpu-prof');
const root = path.resolve(import.meta.dirname, '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const SERVER = 'fx';
const CALL = { name: 'echo', arguments: { text: 'hello' } };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a step of setup.ts and gives its stdout. Asynchronous: the upstream answers from this process. */
function setup(step: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [path.join(root, 'bench/mcp/setup.ts'), step], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`setup ${step} failed (${code}):\n${err.slice(-2000)}`))));
  });
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** One call, checked: a refusal or a wrong answer would make the figures meaningless. */
async function callEcho(client: Client): Promise<void> {
  const result = (await client.callTool(CALL)) as CallToolResult;
  const text = (result.structuredContent as { text?: unknown } | undefined)?.text;
  if (result.isError || text !== 'hello') throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 500)}`);
}

interface Side {
  label: string;
  client: Client;
  latencies: number[];
  /** CPU of this (load generator + upstream) process during the side's blocks, ms. */
  benchCpuMs: number;
  /** CPU of the data plane's process during the side's blocks, all threads and its busiest one, ms. */
  serverCpuMs: number | null;
  serverMainThreadMs: number | null;
}

async function runBlock(side: Side, count: number, serverPid: number | undefined, record: boolean): Promise<void> {
  const serverBefore = serverPid ? treeCpuMs(serverPid) : null;
  const threadsBefore = serverPid ? treeThreadCpuMs(serverPid) : null;
  // After the /proc walks, which would otherwise count as the calls' CPU.
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await callEcho(side.client);
    if (record) side.latencies.push(performance.now() - started);
  }
  if (!record) return;
  const cpu = process.cpuUsage(cpuBefore);
  side.benchCpuMs += (cpu.user + cpu.system) / 1000;
  const serverAfter = serverPid ? treeCpuMs(serverPid) : null;
  const threadsAfter = serverPid ? treeThreadCpuMs(serverPid) : null;
  if (serverBefore !== null && serverAfter !== null) side.serverCpuMs = (side.serverCpuMs ?? 0) + serverAfter - serverBefore;
  if (threadsBefore && threadsAfter) {
    const busiest = Math.max(0, ...[...threadsAfter].map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0)));
    side.serverMainThreadMs = (side.serverMainThreadMs ?? 0) + busiest;
  }
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;

const dir = await mkdtemp(path.join(tmpdir(), 'toolgate-bench-mcp-'));
const toolsFile = path.join(dir, 'tools.json');
await writeFixtureTools(
  toolsFile,
  DEFAULT_FIXTURE_TOOLS.filter((tool) => tool.name === 'echo'),
);
const upstream = await startFixtureHttpServer({ toolsFile, jsonResponse: true });
const scratch = await createScratchDatabase('sqlite', 'bench-mcp');
const databaseEnv = { DATABASE_URL: scratch.target.url, TOOLGATE_MCP_ALLOW_PRIVATE: '1' };
let dataPlane: ChildProcess | null = null;
let dataPlanePid: number | undefined;
const clients: Client[] = [];
let sides: Side[] = [];
let evidence = '';
try {
  const registered = JSON.parse(
    (await setup('register', { ...databaseEnv, BENCH_UPSTREAM_URL: upstream.url })).trim().split('\n').at(-1) ?? '',
  ) as { tenantId: string; agentKey: string };

  const port = await freePort();
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  dataPlane = spawn(
    process.execPath,
    [...nodeArgs, path.join(root, 'scripts/serve.mjs'), '--data-plane', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...databaseEnv, PORT: String(port), HOSTNAME: '127.0.0.1' },
    },
  );
  dataPlanePid = dataPlane.pid;
  await waitForLine(dataPlane, /data plane on/, 60_000);

  const gateway = await connect(`http://127.0.0.1:${port}/api/v1/mcp/${SERVER}`, { authorization: `Bearer ${registered.agentKey}` });
  clients.push(gateway);
  // The first list imports the upstream's tools as drafts (and lists none: nothing is published).
  const before = await gateway.listTools();
  if (before.tools.length !== 0) throw new Error(`expected no tools before publishing, got ${before.tools.length}`);
  await setup('publish', { ...databaseEnv, BENCH_TENANT_ID: registered.tenantId });
  const direct = await connect(upstream.url);
  clients.push(direct);
  // Both clients list the tools, as an agent would, so both check results against the same
  // outputSchema. The data plane learns of the publication from its change-feed poll (1 s).
  for (const client of [direct, gateway]) {
    for (let attempt = 0; ; attempt++) {
      const { tools } = await client.listTools();
      if (tools.some((tool) => tool.name === 'echo')) break;
      if (attempt >= 50) throw new Error('echo is not listed');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  sides = [
    { label: 'direct to the upstream', client: direct, latencies: [], benchCpuMs: 0, serverCpuMs: null, serverMainThreadMs: null },
    { label: 'through the gateway', client: gateway, latencies: [], benchCpuMs: 0, serverCpuMs: null, serverMainThreadMs: null },
  ];
  for (let done = 0; done < warmup; done += block)
    for (const side of sides) await runBlock(side, Math.min(block, warmup - done), undefined, false);
  for (let done = 0; done < calls; done += block) {
    // The data plane takes no part in direct calls: its CPU is read around gateway blocks only.
    for (const side of sides) await runBlock(side, Math.min(block, calls - done), side === sides[1] ? dataPlane.pid : undefined, true);
  }
  evidence = await setup('count', { ...databaseEnv, BENCH_TENANT_ID: registered.tenantId });
} finally {
  for (const client of clients) await client.close().catch(() => undefined);
  if (dataPlane && dataPlane.exitCode === null) {
    const exited = new Promise((resolve) => dataPlane?.once('exit', resolve));
    dataPlane.kill('SIGTERM');
    await exited;
  }
  await upstream.close();
  await scratch.drop();
  await rm(dir, { recursive: true, force: true });
}

const ms = (n: number) => n.toFixed(2);
const us = (n: number | null) => (n === null ? '-' : Math.round(n).toLocaleString('en-US'));
const figures = sides.map((side) => {
  const sorted = [...side.latencies].sort((a, b) => a - b);
  const n = sorted.length;
  return {
    label: side.label,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    mean: sorted.reduce((sum, v) => sum + v, 0) / n,
    benchCpu: (side.benchCpuMs * 1000) / n,
    serverCpu: side.serverCpuMs === null ? null : (side.serverCpuMs * 1000) / n,
    serverMain: side.serverMainThreadMs === null ? null : (side.serverMainThreadMs * 1000) / n,
  };
});
const [directFig, gatewayFig] = figures as [(typeof figures)[number], (typeof figures)[number]];
const rows = figures.map((f) => [f.label, ms(f.p50), ms(f.p90), ms(f.p99), ms(f.mean), us(f.benchCpu), us(f.serverCpu), us(f.serverMain)]);
rows.push([
  'added (gateway - direct)',
  ms(gatewayFig.p50 - directFig.p50),
  ms(gatewayFig.p90 - directFig.p90),
  ms(gatewayFig.p99 - directFig.p99),
  ms(gatewayFig.mean - directFig.mean),
  us(gatewayFig.benchCpu - directFig.benchCpu),
  '',
  '',
]);

console.log(
  `\ntools/call echo {text: "hello"} over Streamable HTTP (SDK Client, JSON answers), ${calls} sequential calls each after ${warmup} warm-up, blocks of ${block} alternating; loopback`,
);
// CPU per call from /proc and process.cpuUsage: "client+upstream" is this process (the SDK
// client and the fixture upstream), "data plane" the gateway's process, all threads and its
// busiest (request) thread; the evidence writer thread is in the first figure only.
const header = ['path', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'client+upstream CPU us/call', 'data plane CPU us/call', 'busiest thread'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')}`;
console.log(line(header));
for (const row of rows) console.log(line(row));
const records = JSON.parse(evidence.trim().split('\n').at(-1) ?? '[]') as { kind: string; decision: string; count: number }[];
console.log(`\n  evidence on SQLite for fx.echo: ${records.map((r) => `${r.kind} ${r.decision} ${r.count}`).join(', ')}`);
// Every call made (warm-up included) must have left its committed pre and post record.
const expected = warmup + calls;
if (records.length !== 2 || records.some((r) => r.decision !== 'allow' || r.count !== expected))
  console.log(`  WARNING: expected exactly ${expected} pre and ${expected} post records, all allow`);
console.log('  goal: < 3 ms added at p50 (SQLite, evidence committed)');
if (profileDir) {
  // Node names profiles CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the request thread.
  const requestThread = readdirSync(profileDir).filter((name) => name.includes(`.${dataPlanePid}.0.`));
  for (const name of requestThread)
    console.log(
      `  request thread's CPU profile: npx tsx bench/mcp/profile-top.ts ${path.join(profileDir, name)} --calls ${warmup + calls}`,
    );
}
