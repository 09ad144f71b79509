import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as nextRoutes from '@/app/api/v1/[...path]/route';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { db } from '@/lib/db';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import type { ToolContract } from '@toolgate/sdk/core';

/**
 * The SDK as an agent developer gets it: `npm pack`, installed with npm into a fresh project
 * outside this repository next to nothing but its peer dependencies, then an agent loop in plain
 * `node` against a running Toolgate (the data plane on a real port), and the TypeScript compiler
 * on a consumer, so a broken build, a missing file or a broken declaration fails here and not at
 * the developer's desk.
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
// Packing builds (tsc), installing may ask the registry about zod, and the consumer's type check
// reads all of Zod's declarations: generous bounds, well under what a hang would take.
const SLOW = 120_000;

const payoutContract: ToolContract = {
  id: 'payouts.send',
  version: '1.0.0',
  description: 'Pays a partner.',
  owner: 'team-payments',
  input: {
    type: 'object',
    required: ['partner', 'amount_cents'],
    additionalProperties: false,
    properties: { partner: { type: 'string', minLength: 1 }, amount_cents: { type: 'integer', minimum: 1 } },
  },
  output: { type: 'object', required: ['payout_id'], properties: { payout_id: { type: 'string' } } },
  annotations: {
    kind: 'mutation',
    side_effect_level: 'external',
    idempotent: false,
    confirmation_required: false,
    approval_required: true,
    approver_roles: ['approver'],
  },
};

/**
 * The agent: two tools, a scripted model that reads each tool message and proposes the next
 * call, and the loop that runs them. The lookup's Zod schema is looser than the published
 * contract (which wants `ord_` and 6 to 24 characters), so Toolgate, not Zod, refuses the
 * model's first try, and the model corrects itself from the llm_message.
 */
const AGENT = `import assert from 'node:assert/strict';
import { z } from 'zod';
import { createToolgateClient, defineTool, ToolgateError } from '@toolgate/sdk';
import { DECISIONS } from '@toolgate/sdk/core';

const { TOOLGATE_URL: baseUrl, TOOLGATE_API_KEY: apiKey } = process.env;
const toolgate = createToolgateClient({ baseUrl, apiKey, approvalPollIntervalMs: 50 });
const ran = [];

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up one order by id.',
  input: z.object({ tenant_id: z.string(), order_id: z.string() }),
  output: z.object({ order_id: z.string(), status: z.enum(['pending_payment', 'paid', 'shipped', 'cancelled']) }),
  contract: { id: 'orders.lookup', owner: 'team-commerce', kind: 'query', side_effect_level: 'read_only', idempotent: true },
  toolgate,
  execute: async ({ order_id }) => {
    ran.push('lookup_order ' + order_id);
    return { order_id, status: 'paid' };
  },
});

const sendPayout = defineTool({
  name: 'send_payout',
  description: 'Pays a partner.',
  input: z.object({ partner: z.string(), amount_cents: z.number().int().min(1) }),
  output: z.object({ payout_id: z.string() }),
  contract: { id: 'payouts.send', owner: 'team-payments', kind: 'mutation', side_effect_level: 'external', idempotent: false },
  toolgate,
  execute: async ({ partner, amount_cents }) => {
    ran.push('send_payout ' + partner + ' ' + amount_cents);
    return { payout_id: 'po_' + amount_cents };
  },
});

const tools = { [lookupOrder.name]: lookupOrder, [sendPayout.name]: sendPayout };

function model(messages) {
  const last = messages.at(-1);
  if (!last) return { id: 'pack-1', name: 'lookup_order', arguments: '{"tenant_id":"acme","order_id":"ORDER-1"}' };
  if (last.tool_call_id === 'pack-1') {
    assert.match(last.content, /AXAG_PATTERN_MISMATCH at \\$\\.order_id/);
    return { id: 'pack-2', name: 'lookup_order', arguments: '{"tenant_id":"acme","order_id":"ord_abc123"}' };
  }
  if (last.tool_call_id === 'pack-2') return { id: 'pack-3', name: 'send_payout', arguments: '{"partner":"p-1","amount_cents":12000}' };
  return undefined;
}

const messages = [];
const transcript = [];
for (let call = model(messages); call; call = model(messages)) {
  const result = await tools[call.name].run(JSON.parse(call.arguments), {
    callId: call.id,
    context: { tenant_id: 'acme', user_id: 'u-1' },
    waitForApproval: { timeoutMs: 60_000 },
  });
  messages.push({ role: 'tool', tool_call_id: call.id, content: result.isError ? result.content : JSON.stringify(result.content) });
  transcript.push({
    call: call.id,
    isError: result.isError,
    stage: result.isError ? result.stage : null,
    pre: result.pre?.decision ?? null,
    post: result.post?.decision ?? null,
    codes: result.isError ? result.issues.map((issue) => issue.code) : [],
    content: result.content,
  });
}

const stranger = createToolgateClient({ baseUrl, apiKey: 'tg_not_a_real_key', maxAttempts: 1 });
const failed = await stranger.validatePre({ tool: 'orders.lookup', call_id: 'pack-4', arguments: {} }).then(() => null, (error) => error);
assert.ok(failed instanceof ToolgateError, 'a refused key rejects with the package\\'s ToolgateError');
const keyError = { name: failed.name, status: failed.status, code: failed.code, retryable: failed.retryable };
console.log(JSON.stringify({ transcript, ran, keyError, decisions: DECISIONS }));
`;

/**
 * A consumer in TypeScript, compiled with NodeNext against the installed declarations (library
 * checks on). The @ts-expect-error lines prove the types are real: were a declaration `any`,
 * the directive would be unused, which is itself an error.
 */
const CONSUMER_TS = `import { z } from 'zod';
import { createToolgateClient, defineTool, ToolgateError, type ToolResult, type ValidationResponse } from '@toolgate/sdk';
import { DECISIONS, llmMessage, type Decision } from '@toolgate/sdk/core';

const toolgate = createToolgateClient({ baseUrl: 'http://localhost:3000', apiKey: 'tg_example' });

const lookup = defineTool({
  name: 'lookup_order',
  description: 'Looks up one order.',
  input: z.object({ order_id: z.string() }),
  output: z.object({ status: z.enum(['paid', 'shipped']) }),
  contract: { id: 'orders.lookup', owner: 'team-commerce', kind: 'query', side_effect_level: 'read_only', idempotent: true },
  toolgate,
  execute: async ({ order_id }) => ({ status: order_id.startsWith('ord_') ? ('paid' as const) : ('shipped' as const) }),
});

export async function once(): Promise<string> {
  const result: ToolResult<{ status: 'paid' | 'shipped' }> = await lookup.run({ order_id: 'ord_abc123' }, { callId: 'c-1' });
  if (result.isError) return result.stage + ': ' + result.content;
  const pre: ValidationResponse | undefined = result.pre;
  return result.content.status + ' ' + (pre?.decision ?? 'local');
}

export const decisions: readonly Decision[] = DECISIONS;
export const codeOf = (error: unknown): string | undefined => (error instanceof ToolgateError ? error.code : undefined);
export const refusal: string = llmMessage({ tool: 'orders.lookup', errors: [], warnings: [] });

defineTool({
  name: 'shout',
  description: 'Shouts.',
  input: z.object({ n: z.number() }),
  output: z.string(),
  // @ts-expect-error execute gets a number, which has no toUpperCase
  execute: async ({ n }) => n.toUpperCase(),
});
// @ts-expect-error the client needs an API key
createToolgateClient({ baseUrl: 'http://localhost:3000' });
`;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  },
  files: ['consumer.ts'],
};

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without throwing, so a failure shows its output. npm's lifecycle
 * variables (set when the suite runs under `npm test`) and the server's settings stay behind:
 * the consumer is a stranger to this repository.
 */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const inherited: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of Object.keys(inherited)) {
    if (!(name in env) && /^(npm_|VITEST|NODE_OPTIONS$|DATABASE_URL$|TOOLGATE_|TEST_DB_)/i.test(name)) delete inherited[name];
  }
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: inherited, timeout: SLOW, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const shown = (ran: Ran) => `exit ${ran.code}\n${ran.stdout.slice(-4000)}\n${ran.stderr.slice(-4000)}`;

/** The files a package's `exports` map points at (its conditions' string leaves), without `./`. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports.replace(/^\.\//, '')];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.values(exports).flatMap(exportTargets);
}

interface PackedFile {
  path: string;
}

let t: Awaited<ReturnType<typeof createTestTenant>>;
let server: http.Server;
let baseUrl = '';
let workDir = '';
let consumerDir = '';
let packedFiles: string[] = [];
let packedManifest: { exports: Record<string, unknown>; peerDependencies?: Record<string, string>; dependencies?: unknown };

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, payoutContract);
  server = createDataPlaneServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  workDir = await mkdtemp(path.join(os.tmpdir(), 'toolgate-sdk-pack-'));
  const packed = await run('npm', ['pack', '-w', '@toolgate/sdk', '--pack-destination', workDir, '--json'], repoRoot);
  expect(packed.code, shown(packed)).toBe(0);
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: PackedFile[] }[];
  packedFiles = tarball!.files.map((file) => file.path).sort();

  consumerDir = path.join(workDir, 'consumer');
  await mkdir(consumerDir);
  await writeFile(path.join(consumerDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The peers come from the packed manifest itself; optional ones (adapters' frameworks) stay out.
  const tarballPath = path.join(workDir, tarball!.filename);
  const unpacked = await run('tar', ['-xzf', tarballPath, '-C', workDir, 'package/package.json'], workDir);
  expect(unpacked.code, shown(unpacked)).toBe(0);
  packedManifest = JSON.parse(await readFile(path.join(workDir, 'package/package.json'), 'utf8')) as typeof packedManifest;
  const meta = (packedManifest as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {};
  const peers = Object.entries(packedManifest.peerDependencies ?? {})
    .filter(([name]) => !meta[name]?.optional)
    .map(([name, range]) => `${name}@${range}`);
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarballPath, ...peers], consumerDir);
  expect(installed.code, shown(installed)).toBe(0);
}, SLOW);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the packed SDK', () => {
  it('holds only the built files, the README and package.json', () => {
    expect(packedFiles).toContain('README.md');
    expect(packedFiles).toContain('package.json');
    const stray = packedFiles.filter((file) => !/^(README\.md|package\.json|dist\/[a-z0-9/-]+\.(js|d\.ts))$/.test(file));
    expect(stray).toEqual([]);
    expect(packedFiles.filter((file) => /\.test\.|(^|\/)testing\//.test(file))).toEqual([]);
    // Every module comes with its declarations, and every export points at a packed file.
    const js = packedFiles.filter((file) => file.endsWith('.js')).map((file) => file.slice(0, -'.js'.length));
    const dts = packedFiles.filter((file) => file.endsWith('.d.ts')).map((file) => file.slice(0, -'.d.ts'.length));
    expect(dts).toEqual(js);
    const targets = exportTargets(packedManifest.exports);
    expect(targets).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/core.js', 'dist/core.d.ts']));
    for (const target of targets) expect(packedFiles).toContain(target);
  });

  it('installs into a fresh project with nothing but its peer dependencies', async () => {
    const modules = (await readdir(path.join(consumerDir, 'node_modules'))).filter((name) => !name.startsWith('.'));
    expect(modules.sort()).toEqual(['@toolgate', 'zod']);
    expect(await readdir(path.join(consumerDir, 'node_modules/@toolgate'))).toEqual(['sdk']);
    const manifest = JSON.parse(await readFile(path.join(consumerDir, 'node_modules/@toolgate/sdk/package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest).toMatchObject({ name: '@toolgate/sdk', type: 'module' });
    expect(manifest.dependencies).toBeUndefined();
    expect(await readdir(path.join(consumerDir, 'node_modules/@toolgate/sdk'))).toEqual(
      expect.arrayContaining(['README.md', 'dist', 'package.json']),
    );
  });

  it(
    'runs an agent loop in plain node against a running Toolgate: refused, corrected, allowed, approved',
    async () => {
      await writeFile(path.join(consumerDir, 'agent.mjs'), AGENT);
      const agent = run(process.execPath, ['agent.mjs'], consumerDir, { TOOLGATE_URL: baseUrl, TOOLGATE_API_KEY: t.agentKey });

      // The payout waits for a person: approve it in Toolgate's queue while the agent waits.
      const pending = await Promise.race([
        vi.waitFor(() => db().approval.findFirstOrThrow({ where: { tenantId: t.tenant.id, callId: 'pack-3', status: 'pending' } }), {
          timeout: 60_000,
          interval: 50,
        }),
        agent.then((ended) => Promise.reject(new Error(`the agent ended before asking for an approval:\n${shown(ended)}`))),
      ]);
      const decided = await nextRoutes.POST(
        new Request(`${baseUrl}/api/v1/approvals/${pending.id}/decision`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'approve', comment: 'partner verified' }),
        }),
      );
      expect(decided.status).toBe(200);

      const ended = await agent;
      expect(ended.code, shown(ended)).toBe(0);
      const report = JSON.parse(ended.stdout) as {
        transcript: {
          call: string;
          isError: boolean;
          stage: string | null;
          pre: string | null;
          post: string | null;
          codes: string[];
          content: unknown;
        }[];
        ran: string[];
        keyError: Record<string, unknown>;
        decisions: string[];
      };
      expect(report.transcript.map(({ call, isError, stage, pre, post, codes }) => ({ call, isError, stage, pre, post, codes }))).toEqual([
        { call: 'pack-1', isError: true, stage: 'pre', pre: 'deny', post: null, codes: ['AXAG_PATTERN_MISMATCH'] },
        { call: 'pack-2', isError: false, stage: null, pre: 'allow', post: 'allow', codes: [] },
        { call: 'pack-3', isError: false, stage: null, pre: 'allow', post: 'allow', codes: [] },
      ]);
      const [refused, allowed, approved] = report.transcript;
      expect(refused!.content).toMatch(
        /^The call to orders\.lookup was refused with 1 problem\. \(1\) AXAG_PATTERN_MISMATCH at \$\.order_id/,
      );
      expect(allowed!.content).toEqual({ order_id: 'ord_abc123', status: 'paid' });
      expect(approved!.content).toEqual({ payout_id: 'po_12000' });
      // The refused call never ran; the payout ran once, after its approval.
      expect(report.ran).toEqual(['lookup_order ord_abc123', 'send_payout p-1 12000']);
      expect(report.keyError).toEqual({ name: 'ToolgateError', status: 401, code: 'unauthorized', retryable: false });
      expect(report.decisions).toEqual(['allow', 'deny', 'transform', 'require_approval', 'escalate']);

      const evidence = await db().evidence.findMany({
        where: { tenant: { tenantId: t.tenant.id }, callId: { in: ['pack-1', 'pack-2', 'pack-3', 'pack-4'] } },
        orderBy: { seq: 'asc' },
      });
      expect(evidence.map((e) => `${e.callId} ${e.kind}:${e.decision}`)).toEqual([
        'pack-1 pre:deny',
        'pack-2 pre:allow',
        'pack-2 post:allow',
        'pack-3 pre:require_approval',
        'pack-3 approval_decision:approved',
        'pack-3 pre:allow',
        'pack-3 post:allow',
      ]);
    },
    SLOW,
  );

  it(
    'type-checks a TypeScript consumer against its declarations (NodeNext)',
    async () => {
      await writeFile(path.join(consumerDir, 'consumer.ts'), CONSUMER_TS);
      await writeFile(path.join(consumerDir, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
      const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], consumerDir);
      expect(checked.code, shown(checked)).toBe(0);
      expect(checked.stdout).toBe('');
    },
    SLOW,
  );
});
