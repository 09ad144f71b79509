import { describe, expect, it } from 'vitest';
import { CONTRACT_TEMPLATES } from '@/lib/contracts/templates';
import type { SarifLog } from '@/lib/lint/sarif';
import { SURFACE_LINT_CODES } from '@/lib/lint/surface';
import { guessDocumentKind } from './guess-document-kind';
import { promptBlockLocator } from './locate-prompt';
import type { ExpandedArgs } from './expand-file-args';
import { CLI_DIAGNOSTIC_CODES, EXIT, lintFile, parseLintArgs, runToolgate } from './run-toolgate';

/** Runs the CLI in-process over an in-memory file system. */
async function run(argv: string[], files: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runToolgate(argv, {
    readFile: async (file) => {
      if (!Object.prototype.hasOwnProperty.call(files, file)) throw new Error(`ENOENT: no such file or directory, open '${file}'`);
      return files[file]!;
    },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    toolVersion: '9.9.9',
  });
  return { code, stdout, stderr };
}

const contract = JSON.stringify(CONTRACT_TEMPLATES[0]!.document, null, 2);
// Line 3 ends in a comma followed by `}` on line 4: the YAML parser (JSON's superset) flags it.
const broken = '{\n  "id": "orders.lookup",\n  "input": [1, 2\n}\n';

const withTests = (tests: unknown[]) => JSON.stringify({ ...CONTRACT_TEMPLATES[0]!.document, tests }, null, 2);
const lookupArgs = (orderId: unknown) => ({ tenant_id: 'acme', order_id: orderId });

describe('toolgate test', () => {
  it('runs the cases a contract carries and exits 1 when one fails', async () => {
    const passing = withTests([
      { name: 'valid id', arguments: lookupArgs('ord_abc123'), context: { tenant_id: 'acme' }, expect: { decision: 'allow' } },
    ]);
    const failing = withTests([
      { name: 'wrong expectation', arguments: lookupArgs(42), context: { tenant_id: 'acme' }, expect: { decision: 'allow' } },
    ]);
    const ok = await run(['test', 'ok.json'], { 'ok.json': passing });
    expect(ok).toMatchObject({ code: EXIT.ok, stdout: 'ok.json: pass valid id\n1 passed, 0 failed\n' });
    const bad = await run(['test', 'ok.json', 'bad.json'], { 'ok.json': passing, 'bad.json': failing });
    expect(bad.code).toBe(EXIT.errors);
    expect(bad.stdout).toContain('bad.json: FAIL wrong expectation: expected decision allow, got deny');
    expect(bad.stdout).toMatch(/1 passed, 1 failed\n$/);
  });

  it('runs the cases a policy carries, checking decision, deciding rule and transformed arguments', async () => {
    const policy = (expectations: Record<string, unknown>) =>
      `id: refunds\nversion: 1.0.0\nrules:\n  - id: cap\n    tools: [payments.refund]\n    when: "args.amount_cents > 100"\n    decision: transform\n    set: { amount_cents: 100 }\ntests:\n  - name: capped\n    tool: payments.refund\n    arguments: { amount_cents: 500 }\n    expect: ${JSON.stringify(expectations)}\n`;
    const ok = await run(['test', 'p.yaml'], {
      'p.yaml': policy({ decision: 'transform', rule: 'cap', arguments: { amount_cents: 100 } }),
    });
    expect(ok).toMatchObject({ code: EXIT.ok, stdout: 'p.yaml: pass capped\n1 passed, 0 failed\n' });
    const bad = await run(['test', 'p.yaml'], {
      'p.yaml': policy({ decision: 'transform', rule: 'other', arguments: { amount_cents: 50 } }),
    });
    expect(bad.code).toBe(EXIT.errors);
    expect(bad.stdout).toContain(
      'p.yaml: FAIL capped: expected rule other to decide, got cap; expected arguments {"amount_cents":50}, got {"amount_cents":100}',
    );
    const surface = await run(['test', 's.json'], { 's.json': JSON.stringify({ id: 's', version: '1.0.0', tools: [] }) });
    expect(surface).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringContaining('s.json: skipped: test cases run for contracts and policies'),
    });
  });

  it('runs policy cases with a declared history: a limit, a soft budget and history.called_with', async () => {
    const policy = (expected: string) => `id: refunds
version: 1.0.0
limits:
  - { id: per-user, tools: [payments.refund], per: user, window: 1h, max_calls: 2 }
  - { id: budget, tools: [payments.refund], per: tenant, window: 1d, max_sum: { path: amount, value: 100 }, when_exceeded: require_approval, roles: [finance] }
rules:
  - id: export-first
    tools: [accounts.delete]
    when: "!history.called_with('accounts.export', ['account_id'], 'session', '1h')"
    decision: deny
tests:
  - name: third refund in an hour
    tool: payments.refund
    arguments: { amount: 1 }
    context: { user_id: u1 }
    history: [{ tool: payments.refund, seconds_ago: 60 }, { tool: payments.refund, seconds_ago: 3000 }]
    expect: { decision: ${expected}, rule: per-user, errors: [AXAG_RATE_LIMITED] }
  - name: past the budget
    tool: payments.refund
    arguments: { amount: 30 }
    history: [{ tool: payments.refund, arguments: { amount: 80 }, context: { user_id: u2 }, seconds_ago: 7200 }]
    expect: { decision: require_approval, rule: budget }
  - name: delete after export
    tool: accounts.delete
    arguments: { account_id: a1 }
    context: { session_id: s1 }
    history: [{ tool: accounts.export, seconds_ago: 30 }]
    expect: { decision: allow }
`;
    const ok = await run(['test', 'p.yaml'], { 'p.yaml': policy('deny') });
    expect(ok).toMatchObject({
      code: EXIT.ok,
      stdout: 'p.yaml: pass third refund in an hour\np.yaml: pass past the budget\np.yaml: pass delete after export\n3 passed, 0 failed\n',
    });
    const bad = await run(['test', 'p.yaml'], { 'p.yaml': policy('allow') });
    expect(bad.code).toBe(EXIT.errors);
    expect(bad.stdout).toContain('p.yaml: FAIL third refund in an hour: expected decision allow, got deny');
    expect(bad.stdout).toMatch(/2 passed, 1 failed\n$/);
    // A policy of limits alone is still recognised as a policy.
    const limitsOnly = `id: l\nversion: 1.0.0\nlimits: [{ id: one, tools: ["*"], per: key, window: 1m, max_calls: 1 }]\ntests:\n  - { name: second call, tool: a, history: [{ tool: b, seconds_ago: 1 }], expect: { decision: deny } }\n`;
    expect(await run(['test', 'l.yaml'], { 'l.yaml': limitsOnly })).toMatchObject({
      code: EXIT.ok,
      stdout: 'l.yaml: pass second call\n1 passed, 0 failed\n',
    });
  });

  it('exits 1 for a contract that does not compile and 2 for a missing file', async () => {
    expect((await run(['test', 'broken.json'], { 'broken.json': broken })).code).toBe(EXIT.errors);
    expect((await run(['test', 'missing.json'])).code).toBe(EXIT.usage);
    expect((await run(['test'])).code).toBe(EXIT.usage);
  });
});

describe('toolgate', () => {
  it('prints usage and exits 2 without a command, 0 when asked for help', async () => {
    expect(await run([])).toMatchObject({ code: EXIT.usage, stdout: '', stderr: expect.stringMatching(/^Usage: toolgate <command>/) });
    expect(await run(['--help'])).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/^Usage: toolgate <command>/) });
    expect(await run(['lint', '--help'])).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringMatching(/^Usage: toolgate lint <files, directories or globs\.\.\.>/),
    });
  });

  it('refuses an unknown command', async () => {
    expect(await run(['tset', 'a.json'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/^toolgate: unknown command "tset"\./),
    });
    expect(await run(['__proto__'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/^toolgate: unknown command "__proto__"\./),
    });
  });
});

describe('parseLintArgs', () => {
  it('reads files and both option spellings; -- ends the options', () => {
    expect(parseLintArgs(['a.json', '--format', 'sarif', '--kind=policy', 'b.yaml'])).toEqual({
      ok: true,
      args: { files: ['a.json', 'b.yaml'], format: 'sarif', kind: 'policy' },
    });
    expect(parseLintArgs(['--', '--format', 'a.json'])).toEqual({
      ok: true,
      args: { files: ['--format', 'a.json'], format: 'text', kind: undefined },
    });
  });

  it.each([
    [[], 'Name at least one file to lint.'],
    [['a.json', '--format', 'xml'], '--format must be one of text, json, sarif; got "xml".'],
    [['a.json', '--kind=tool'], '--kind must be one of contract, policy, surface; got "tool".'],
    [['a.json', '--format'], '--format needs a value.'],
    [['a.json', '--max-warnings', '0'], 'Unknown option --max-warnings.'],
  ])('%j is a usage error', async (args, message) => {
    expect(parseLintArgs(args)).toEqual({ ok: false, help: false, message });
    const result = await run(['lint', ...args], { 'a.json': contract });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr.split('\n')[0]).toBe(`toolgate lint: ${message}`);
  });
});

describe('toolgate lint', () => {
  it('prints compiler-style lines and a summary, and exits 1 on an error', async () => {
    const result = await run(['lint', 'ok.json', 'bad.json'], { 'ok.json': contract, 'bad.json': broken });
    expect(result.code).toBe(EXIT.errors);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    const errors = lines.length - 1;
    expect(lines.at(-1)).toBe(`${errors} error${errors === 1 ? '' : 's'} in 2 files.`);
    expect(lines[0]).toMatch(/^bad\.json:4:1 error DOCUMENT_PARSE_ERROR JSON syntax: /);
    expect(lines.every((line, i) => i === lines.length - 1 || line.startsWith('bad.json:'))).toBe(true);
  });

  it('exits 0 on a clean document', async () => {
    expect(await run(['lint', 'ok.json'], { 'ok.json': contract })).toEqual({
      code: EXIT.ok,
      stdout: 'No problems in 1 file.\n',
      stderr: '',
    });
  });

  it('exits 2 when a file cannot be read, still linting the others', async () => {
    const result = await run(['lint', 'gone.json', 'bad.json'], { 'bad.json': broken });
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toBe("toolgate lint: Cannot read gone.json: ENOENT: no such file or directory, open 'gone.json'\n");
    expect(result.stdout).toMatch(/^bad\.json:4:1 error DOCUMENT_PARSE_ERROR/);
    expect(result.stdout).toMatch(/errors? in 1 file\. 1 of 2 files could not be read\.\n$/);
  });

  it('lints what the expansion of directories and globs gives, and stops with exit 2 when it gives nothing', async () => {
    const files = { 'c/a.json': contract, 'c/b.json': broken };
    const io = (expansion: ExpandedArgs) => {
      let stdout = '';
      let stderr = '';
      const seen: string[][] = [];
      return {
        io: {
          readFile: async (file: string) => files[file as keyof typeof files] ?? Promise.reject(new Error('ENOENT')),
          stdout: (text: string) => (stdout += text),
          stderr: (text: string) => (stderr += text),
          expandFiles: async (args: readonly string[]) => (seen.push([...args]), expansion),
        },
        out: () => ({ stdout, stderr, seen }),
      };
    };
    const found = io({ ok: true, files: ['c/a.json', 'c/b.json'] });
    expect(await runToolgate(['lint', 'c/'], found.io)).toBe(EXIT.errors);
    expect(found.out()).toMatchObject({
      seen: [['c/']],
      stdout: expect.stringMatching(/^c\/b\.json:4:1 error DOCUMENT_PARSE_ERROR[^]*in 2 files\.\n$/),
      stderr: '',
    });
    const none = io({ ok: false, message: 'c/ holds no .json, .yaml or .yml files.' });
    expect(await runToolgate(['lint', '--format', 'sarif', 'c/'], none.io)).toBe(EXIT.usage);
    expect(none.out()).toMatchObject({ stdout: '', stderr: 'toolgate lint: c/ holds no .json, .yaml or .yml files.\n' });
    const tests = io({ ok: false, message: 'No file matches c/*.yml.' });
    expect(await runToolgate(['test', 'c/*.yml'], tests.io)).toBe(EXIT.usage);
    expect(tests.out()).toMatchObject({ stdout: '', stderr: 'toolgate test: No file matches c/*.yml.\n' });
  });

  it('writes JSON: one array of {file, ...diagnostic}', async () => {
    const result = await run(['lint', '--format', 'json', 'ok.json', 'bad.json'], { 'ok.json': contract, 'bad.json': broken });
    expect(result.code).toBe(EXIT.errors);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(parsed.length).toBeGreaterThan(0);
    expect(parsed[0]).toEqual({
      file: 'bad.json',
      code: 'DOCUMENT_PARSE_ERROR',
      severity: 'error',
      message: expect.stringMatching(/^JSON syntax: /),
      path: '$',
      range: expect.objectContaining({ startLine: 4, startColumn: 1 }),
      target: 'document',
    });
    expect(JSON.parse((await run(['lint', '--format=json', 'ok.json'], { 'ok.json': contract })).stdout)).toEqual([]);
  });

  it('writes SARIF with relative artifact URIs and 1-based regions', async () => {
    const result = await run(['lint', '--format', 'sarif', 'contracts/bad file.json'], { 'contracts/bad file.json': broken });
    expect(result.code).toBe(EXIT.errors);
    const log = JSON.parse(result.stdout) as SarifLog;
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.tool.driver).toMatchObject({ name: 'toolgate', version: '9.9.9', rules: [{ id: 'DOCUMENT_PARSE_ERROR' }] });
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'contracts/bad%20file.json' },
      region: expect.objectContaining({ startLine: 4, startColumn: 1 }),
    });
  });

  it("describes each SARIF rule with the linters' own summary", async () => {
    const result = await run(['lint', '--format', 'sarif', 'odd.yaml', 's.yaml'], {
      'odd.yaml': 'name: x\n',
      's.yaml': 'tools:\n  - name: lookup_order\n    description: Looks up an order.\n',
    });
    const rules = (JSON.parse(result.stdout) as SarifLog).runs[0]!.tool.driver.rules;
    expect(rules.find((r) => r.id === 'DOCUMENT_KIND_UNKNOWN')?.shortDescription.text).toBe(CLI_DIAGNOSTIC_CODES.DOCUMENT_KIND_UNKNOWN);
    expect(rules.find((r) => r.id === 'TOOL_SURFACE_MISSING_ANNOTATIONS')?.shortDescription.text).toBe(
      SURFACE_LINT_CODES.TOOL_SURFACE_MISSING_ANNOTATIONS.summary,
    );
  });

  it('says when it cannot tell the kind, and --kind settles it', async () => {
    const odd = 'name: something\nversion: 1.0.0\n';
    const guessed = await run(['lint', 'odd.yaml'], { 'odd.yaml': odd });
    expect(guessed.code).toBe(EXIT.errors);
    expect(guessed.stdout.split('\n')[0]).toMatch(/^odd\.yaml:1:1 error DOCUMENT_KIND_UNKNOWN Cannot tell what this document is: /);
    const told = await run(['lint', '--kind', 'contract', 'odd.yaml'], { 'odd.yaml': odd });
    expect(told.stdout).not.toContain('DOCUMENT_KIND_UNKNOWN');
  });

  it('reads the format from the extension: a .json file must be JSON, YAML is for .yaml', async () => {
    const yamlText = `# a comment\n${contract}`;
    expect((await run(['lint', 'c.yaml'], { 'c.yaml': yamlText })).code).toBe(EXIT.ok);
    const asJson = await run(['lint', 'c.json'], { 'c.json': yamlText });
    expect(asJson.code).toBe(EXIT.errors);
    expect(asJson.stdout).toMatch(/^c\.json:\d+:\d+ error DOCUMENT_PARSE_ERROR JSON syntax/);
  });

  it('ignores a byte order mark', async () => {
    expect(await run(['lint', 'bom.json'], { 'bom.json': `\uFEFF${contract}` })).toMatchObject({ code: EXIT.ok });
  });
});

describe('guessDocumentKind', () => {
  it.each([
    [{ input: {}, annotations: {} }, 'contract'],
    [{ input: {}, annotations: {}, tools: [] }, 'contract'],
    [{ tools: [] }, 'surface'],
    [{ capability: {} }, 'policy'],
    [{ rules: [] }, 'policy'],
    [{ approval: {} }, 'policy'],
    [{ arg_constraints: [] }, 'policy'],
    [{ limits: [] }, 'policy'],
    [{ input: {} }, undefined],
    [JSON.parse('{"__proto__": {"tools": []}}'), undefined],
    [[], undefined],
    ['tools', undefined],
    [null, undefined],
  ])('%j is %s', (value, kind) => {
    expect(guessDocumentKind(value)).toBe(kind);
  });
});

describe('prompt findings in a file', () => {
  const surface = [
    'id: support',
    'version: 1.0.0',
    'tools:',
    '  - name: lookup_order',
    '    description: Looks up an order.',
    'system: |',
    '  You help customers.',
    '  Call delete_everything(now) when angry.',
    '',
  ].join('\n');

  it('lands on the exact line and column when the prompt is a YAML literal block', () => {
    const found = lintFile('s.yaml', surface).find((d) => d.code === 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL');
    expect(found).toMatchObject({
      target: 'prompt',
      range: { startLine: 2, startColumn: 6 },
      promptAt: { startLine: 8, startColumn: 8, endLine: 8, endColumn: 25 },
    });
    expect(surface.split('\n')[7]!.slice(7, 24)).toBe('delete_everything');
  });

  it('falls back to the prompt value when the prompt is a JSON string', () => {
    const json = JSON.stringify(
      {
        id: 'support',
        version: '1.0.0',
        tools: [{ name: 'lookup_order', description: 'Looks up an order.' }],
        system: 'You help.\nCall delete_everything(now).',
      },
      null,
      2,
    );
    const found = lintFile('s.json', json).find((d) => d.code === 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL');
    const systemLine = json.split('\n').findIndex((line) => line.includes('"system"')) + 1;
    expect(found).toMatchObject({ target: 'prompt', range: { startLine: 2 }, promptAt: { startLine: systemLine } });
  });
});

describe('promptBlockLocator', () => {
  const value = (startLine: number, startColumn: number) => ({ startLine, startColumn, endLine: startLine + 3, endColumn: 1 });
  const at = (line: number, column: number, length = 1) => ({
    startLine: line,
    startColumn: column,
    endLine: line,
    endColumn: column + length,
  });

  it.each(['|', '|-', '|+', '|2', '|-2', '| # a comment'])('maps through a %s block, checking every line against the prompt', (header) => {
    const text = `a: 1\nsystem: ${header}\n    indented more\n  second line\n`;
    const locate = promptBlockLocator(text, value(2, 9), '  indented more\nsecond line\n');
    expect(locate?.(at(2, 3, 4))).toEqual({ startLine: 4, startColumn: 5, endLine: 4, endColumn: 9 });
    expect(locate?.(at(1, 3))).toEqual(at(3, 5));
  });

  it('gives no exact place for folded or quoted prompts, or text that does not match', () => {
    expect(promptBlockLocator('system: >\n  a\n  b\n', value(1, 9), 'a b\n')).toBeUndefined();
    expect(promptBlockLocator('system: "a\\nb"\n', value(1, 9), 'a\nb')).toBeUndefined();
    const locate = promptBlockLocator('system: |\n  a\n  b\n', value(1, 9), 'a\nDIFFERENT\n');
    expect(locate?.(at(1, 1))).toEqual(at(2, 3));
    expect(locate?.(at(2, 1))).toBeUndefined();
  });
});
