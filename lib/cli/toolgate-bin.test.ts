import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_TEMPLATES } from '@/lib/contracts/templates';
import type { SarifLog } from '@/lib/lint/sarif';

/**
 * The real command, as `npx toolgate` runs it: bin/toolgate.mjs in a child process, started
 * from a directory outside the repo (so the tsconfig lookup and relative paths are exercised),
 * on files the test writes.
 */

const bin = path.resolve(__dirname, '../../bin/toolgate.mjs');
let dir: string;

function toolgate(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'toolgate-cli-'));
  await mkdir(path.join(dir, 'contracts'));
  await writeFile(path.join(dir, 'contracts/lookup.json'), JSON.stringify(CONTRACT_TEMPLATES[0]!.document, null, 2));
  // A duplicate key: the parser reports it on line 3, column 3.
  await writeFile(path.join(dir, 'contracts/dup.json'), '{\n  "id": "a.b",\n  "id": "c.d"\n}\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bin/toolgate.mjs', () => {
  it('lints files as text and exits 1 on an error', async () => {
    const result = await toolgate('lint', 'contracts/lookup.json', 'contracts/dup.json');
    expect(result).toEqual({
      code: 1,
      stdout: 'contracts/dup.json:3:3 error DOCUMENT_DUPLICATE_KEY JSON syntax: Duplicate key "id"\n1 error in 2 files.\n',
      stderr: '',
    });
  }, 30_000);

  it('exits 0 on a clean file', async () => {
    expect(await toolgate('lint', 'contracts/lookup.json')).toEqual({ code: 0, stdout: 'No problems in 1 file.\n', stderr: '' });
  }, 30_000);

  it('writes JSON', async () => {
    const result = await toolgate('lint', '--format', 'json', 'contracts/dup.json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        file: 'contracts/dup.json',
        code: 'DOCUMENT_DUPLICATE_KEY',
        severity: 'error',
        message: 'JSON syntax: Duplicate key "id"',
        path: '$',
        range: { startLine: 3, startColumn: 3, endLine: 3, endColumn: 4 },
        target: 'document',
      },
    ]);
  }, 30_000);

  it('writes SARIF 2.1.0 with the package version and relative URIs', async () => {
    const result = await toolgate('lint', '--format=sarif', './contracts/dup.json', 'contracts/lookup.json');
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout) as SarifLog;
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.tool.driver).toEqual({
      name: 'toolgate',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      rules: [{ id: 'DOCUMENT_DUPLICATE_KEY', shortDescription: { text: 'An object has the same key twice.' }, defaultConfiguration: { level: 'error' } }],
    });
    expect(log.runs[0]!.results).toEqual([
      {
        ruleId: 'DOCUMENT_DUPLICATE_KEY',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'JSON syntax: Duplicate key "id"' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'contracts/dup.json' }, region: { startLine: 3, startColumn: 3, endLine: 3, endColumn: 4 } } }],
        properties: { jsonPath: '$', target: 'document' },
      },
    ]);
  }, 30_000);

  it('exits 2 on a missing file or a usage error', async () => {
    const missing = await toolgate('lint', 'contracts/nope.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^toolgate lint: Cannot read contracts\/nope\.json: ENOENT/);
    const directory = await toolgate('lint', 'contracts');
    expect(directory.code).toBe(2);
    expect(directory.stderr).toBe('toolgate lint: Cannot read contracts: it is a directory\n');
    const usage = await toolgate('lint', '--format', 'xml', 'contracts/dup.json');
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe('toolgate lint: --format must be one of text, json, sarif; got "xml".');
  }, 30_000);
});
