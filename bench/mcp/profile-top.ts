// Where a gateway call's time goes on the data plane's request thread, from the V8 CPU profile
// that `npm run bench:mcp -- --cpu-prof <dir>` writes (the request thread's file is the one
// numbered .0.001; the evidence writer thread's is .1.002). Samples are counted from the first
// one inside gateToolCall, so start-up is left out, and divided by --calls (warm-up + measured
// calls). V8 samples the thread's wall time while it is not idle: time it spends preempted or
// blocked inside a system call (writev, fsync) counts too, so read the shares, and take CPU
// per call from the bench's own table.
// Usage: tsx bench/mcp/profile-top.ts <file.cpuprofile> --calls <n> [--top <n>]
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, ...rest] = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? Number(rest[i + 1]) : fallback;
};
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> --calls <n> [--top <n>]');
const calls = option('calls', 1);
const top = option('top', 15);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const stacks = new Map<number, CallFrame[]>();
function stackOf(id: number): CallFrame[] {
  let stack = stacks.get(id);
  if (!stack) {
    stack = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) stack.push((nodes.get(at) as ProfileNode).callFrame);
    stacks.set(id, stack);
  }
  return stack;
}

const has = (stack: CallFrame[], name: string) => stack.some((frame) => frame.functionName === name);
const leafUrl = (pattern: RegExp) => (stack: CallFrame[]) => pattern.test(stack[0]?.url ?? '');
// First match wins, so the specific groups come before the packages they call into.
const groups: [string, (stack: CallFrame[]) => boolean][] = [
  ['idle', (stack) => stack[0]?.functionName === '(idle)'],
  ['garbage collection', (stack) => stack[0]?.functionName === '(garbage collector)'],
  ['socket writes (writev)', (stack) => stack[0]?.functionName === 'writev' || has(stack, 'writevGeneric') || has(stack, 'writeGeneric')],
  ['evidence handed to the writer thread (postMessage)', (stack) => has(stack, 'postMessage')],
  ['an SDK Server per request (its own Ajv instance)', (stack) => has(stack, 'createGatewayServer')],
  ['database reads: Prisma + better-sqlite3', (stack) => stack.some((frame) => /@prisma|better-sqlite3|^wasm:/.test(frame.url))],
  ['MCP SDK (transports, protocol)', leafUrl(/@modelcontextprotocol/)],
  ['Zod', leafUrl(/\/zod\//)],
  ['Ajv', leafUrl(/\/ajv\//)],
  ['Web streams, Request/Response (undici)', leafUrl(/undici|webstreams|internal\/deps/)],
  ['node:http, net, streams, events', leafUrl(/^node:(_http|net|internal\/streams|events|internal\/http)/)],
  ['Toolgate code (the server bundle)', leafUrl(/\.toolgate\/server\//)],
  ['other (native, V8, Node internals)', () => true],
];

const totals = new Map(groups.map(([label]) => [label, 0]));
const selfTimes = new Map<string, number>();
let started = false;
for (let i = 0; i < profile.samples.length; i++) {
  const stack = stackOf(profile.samples[i] as number);
  started ||= has(stack, 'gateToolCall');
  if (!started) continue;
  // A sample's time is the gap to the next one.
  const micros = profile.timeDeltas[i + 1] ?? 0;
  const group = groups.find(([, matches]) => matches(stack))?.[0] as string;
  totals.set(group, (totals.get(group) ?? 0) + micros);
  const leaf = stack[0] as CallFrame;
  if (group !== 'idle') {
    const where = leaf.url
      ? ` ${leaf.url.replace(/^.*node_modules\//, '').replace(/^.*\.toolgate\/server\/[^/]+\//, 'bundle:')}:${leaf.lineNumber + 1}`
      : '';
    const key = `${leaf.functionName || '(anonymous)'}${where}`;
    selfTimes.set(key, (selfTimes.get(key) ?? 0) + micros);
  }
}
if (!started) throw new Error('no sample inside gateToolCall: is this the request thread of a bench:mcp run?');

const busy = [...totals].reduce((sum, [label, micros]) => (label === 'idle' ? sum : sum + micros), 0);
const row = (label: string, micros: number) =>
  `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${Math.round(micros / calls)
    .toLocaleString('en-US')
    .padStart(6)} us/call  ${label}`;
console.log(`\nRequest thread, not idle: ${(busy / 1e6).toFixed(1)} s over ${calls} calls (${Math.round(busy / calls)} us per call)`);
for (const [label, micros] of [...totals].filter(([label]) => label !== 'idle').sort((a, b) => b[1] - a[1]))
  console.log(row(label, micros));
console.log('\nTop functions by self time');
for (const [key, micros] of [...selfTimes].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(row(key, micros));
