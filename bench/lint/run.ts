// npx tsx bench/lint/run.ts: time to lint a large tool surface through lintDocument, as the
// studio's worker, POST /api/v1/lint and the CLI do. A surface of 1,000 tools (half inline,
// half contract references) and a 20,000-character prompt mentioning many of them, in YAML
// and in JSON. Goal (issue 5): under 50 ms in Node.
// Options: --runs <n> (default 30), --warmup <n> (default 10).
import { parseDocument as parseYamlDocument, stringify, visit } from 'yaml';
import { lintDocument } from '../../lib/lint/index';
import { parseDocument } from '../../lib/lint/parse-document';
import { lintSurface } from '../../lib/lint/surface';
import { parseYamlFast } from '../../lib/lint/yaml-fast';
import { parseYamlFull } from '../../lib/lint/yaml-full';
import { YAML_OPTIONS } from '../../lib/lint/yaml-fast-scalars';
import { canonicalJson } from '../../lib/contracts/canonical-json-core';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = option('runs', 30);
const warmup = option('warmup', 10);

const TOOLS = 1000;
const levels = ['read_only', 'write', 'external'] as const;

const contracts = Array.from({ length: TOOLS / 2 }, (_, i) => ({
  id: `svc${i % 25}.op_${i}`,
  version: '1.0.0',
  description: `Operation ${i}.`,
  owner: 'team-bench',
  input: {
    type: 'object',
    required: ['tenant_id', 'target_id'],
    properties: { tenant_id: { type: 'string' }, target_id: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
  },
  annotations: { kind: 'query', side_effect_level: levels[i % levels.length], idempotent: true },
}));

const tools = Array.from({ length: TOOLS }, (_, i) => {
  if (i % 2 === 0) {
    const contract = contracts[i / 2];
    return { contract: contract?.id, executor: `svc${i % 25}`, ...(i % 20 === 0 ? { defer_loading: true } : {}) };
  }
  return {
    name: `tool_${i}`,
    description: `Does thing number ${i}.`,
    parameters: {
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string' }, mode: { type: 'string', enum: ['fast', 'safe'] }, depth: { type: 'integer' } },
    },
    annotations: {
      kind: i % 10 === 1 ? 'execute' : 'query',
      side_effect_level: i % 10 === 1 ? 'write' : 'read_only',
      ...(i % 10 === 1 ? { emits_artifacts: true, result_readers: [`tool_${i + 2}`] } : {}),
      arg_aliases: { p: 'path' },
    },
    executor: 'host',
  };
});

// ~20,000 characters of prose that names tools as words, calls and inline code, with a fenced
// example and a suppressed region the scanner must skip.
const lines: string[] = ['You are the operations agent. Follow these rules carefully.', ''];
for (let i = 0; lines.join('\n').length < 20_000; i++) {
  const inline = `tool_${((i * 7) % TOOLS) | 1}`;
  const ref = contracts[(i * 13) % contracts.length]?.id ?? '';
  lines.push(
    `${i + 1}. When the user asks about item ${i}, call ${inline}({path: "/data/${i}", mode: "safe"}) and then use \`${ref}\` to confirm.`,
  );
  if (i % 15 === 0) lines.push('', '```', `${inline}({p: "example"})`, '```', '');
  if (i % 40 === 0) lines.push('<!-- harn-tool-surface: ignore-next-line -->', `old_tool_${i}({path: "x"})`);
  if (i % 25 === 0) lines.push(`Never invent tools such as made_up_${i}(x); search the docs first.`);
}
const prompt = lines.join('\n');

const surface = {
  id: 'bench-surface',
  version: '1.0.0',
  tools,
  policy: {
    tools: ['svc*', 'tool_*'],
    side_effect_ceiling: 'external',
    arg_constraints: [
      { tool: 'tool_1', key: 'mode', allowed_values: ['fast', 'safe'] },
      { tool: 'svc1.*', key: 'limit', pattern: '^[0-9]{1,3}$' },
    ],
  },
  approval_policy: { rules: [{ tools: ['svc3.*', 'tool_3'], roles: ['approver'], expires_in_seconds: 3600 }] },
  tool_search: false,
};

function timings(fn: () => unknown, counts = { runs, warmup }): { median: number; p95: number } {
  for (let i = 0; i < counts.warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < counts.runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

const ms = (t: { median: number; p95: number }) => `median ${t.median.toFixed(1).padStart(6)} ms  p95 ${t.p95.toFixed(1).padStart(6)} ms`;

// The total is what a caller sees; parsing (lib/lint/parse-document.ts) and the surface rules
// are also timed apart, because they are different code with different owners.
function measure(label: string, text: string, format: 'yaml' | 'json') {
  const options = { format, prompt, contracts };
  const first = lintDocument('surface', text, options);
  const total = timings(() => lintDocument('surface', text, options));
  const parse = timings(() => parseDocument(text, format));
  const parsed = parseDocument(text, format);
  const rules = timings(() => lintSurface(parsed, options));
  const counts = new Map<string, number>();
  for (const d of first.diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  console.log(`${label} (${(text.length / 1024).toFixed(0)} KiB)`);
  console.log(`  lintDocument, total   ${ms(total)}`);
  console.log(`    parseDocument       ${ms(parse)}`);
  console.log(`    lintSurface         ${ms(rules)}`);
  if (format === 'yaml') {
    // parseDocument reads YAML with its own fast path (lib/lint/yaml-fast.ts) when the text is
    // in the subset it reads exactly, and with the `yaml` package otherwise; both are shown.
    const taken = parseYamlFast(text, 200_000, 64) !== undefined;
    const full = timings(() => parseYamlFull(text, 200_000, 64));
    console.log(`    fast path taken: ${taken ? 'yes' : 'NO'}; the \`yaml\` package path would take ${ms(full)}`);
  }
  console.log(`  ${first.diagnostics.length} diagnostics: ${[...counts].map(([c, n]) => `${c} ${n}`).join(', ')}`);
}

console.log(
  `Surface lint: ${TOOLS} tools, ${prompt.length.toLocaleString('en-US')}-character prompt, ${runs} runs after ${warmup} warm-up (goal: under 50 ms)`,
);
measure('YAML', stringify(surface), 'yaml');
measure('JSON', JSON.stringify(surface, null, 2), 'json');

// YAML aliases: `yaml.stringify` writes an anchor and aliases wherever objects share a value (a
// policy's rules listing one `tools` array). parseYamlFull used to resolve each alias with the
// package's Alias.resolve, which walks the whole document each time; it now keeps an anchor
// table. The baseline is the package parsing the text plus that per-alias resolution.
const sharedTools = ['support.issue_credit'];
const aliasPolicy = stringify({
  id: 'alias-bench',
  version: '1.0.0',
  rules: Array.from({ length: 3000 }, (_, i) => ({ id: `r${i}`, tools: sharedTools, when: `args.amount_cents > ${i}`, decision: 'deny' })),
});
const aliasCount = aliasPolicy.split('*a1').length - 1;
const aliasRuns = { runs: Math.min(runs, 3), warmup: 0 };
console.log(
  `YAML policy with ${aliasCount.toLocaleString('en-US')} aliases (${(aliasPolicy.length / 1024).toFixed(0)} KiB), ${aliasRuns.runs} runs`,
);
console.log(`  parseYamlFull                          ${ms(timings(() => parseYamlFull(aliasPolicy, 200_000, 64), aliasRuns))}`);
const resolveEachAlias = () => {
  const doc = parseYamlDocument(aliasPolicy, YAML_OPTIONS);
  visit(doc, { Alias: (_key, alias) => void alias.resolve(doc) });
};
console.log(`  yaml parse + Alias.resolve (baseline)  ${ms(timings(resolveEachAlias, aliasRuns))}`);

// YAML aliases of long strings: twelve doubling anchors over a 100 KB string expand to 800 MB of
// strings, which lintDocument read whole (canonical JSON of the contract) before 2026-12-07.
// The document limit on expanded characters now stops the parse; the baseline is the same
// parse without that limit followed by the canonical JSON the contract linter built.
const doubling = [`l0: &l0 "${'x'.repeat(100_000)}"`];
for (let i = 1; i <= 12; i++) doubling.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
const amplified = doubling.join('\n');
console.log(`YAML of a 100 KB string behind 12 doubling anchors (${(amplified.length / 1024).toFixed(0)} KiB), ${aliasRuns.runs} runs`);
console.log(`  lintDocument (refused: over 10,000,000 characters)  ${ms(timings(() => lintDocument('contract', amplified), aliasRuns))}`);
const unbounded = () => {
  const parsed = parseYamlFull(amplified, 200_000, 64);
  if (parsed.kind === 'ok') {
    try {
      canonicalJson(parsed.value);
    } catch {
      // "Invalid string length" at 512 MB, as the contract linter answered.
    }
  }
};
console.log(`  unbounded parse + canonical JSON (baseline)         ${ms(timings(unbounded, aliasRuns))}`);
