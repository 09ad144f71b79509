import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
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
  // A nested YAML copy, a file the directory walk must leave out, and a directory with no documents.
  await mkdir(path.join(dir, 'contracts/nested'));
  await writeFile(path.join(dir, 'contracts/nested/lookup.yaml'), stringify(CONTRACT_TEMPLATES[0]!.document));
  await writeFile(path.join(dir, 'contracts/README.md'), '# not a document\n');
  await mkdir(path.join(dir, 'empty'));
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
      rules: [
        {
          id: 'DOCUMENT_DUPLICATE_KEY',
          shortDescription: { text: 'An object has the same key twice.' },
          defaultConfiguration: { level: 'error' },
        },
      ],
    });
    expect(log.runs[0]!.results).toEqual([
      {
        ruleId: 'DOCUMENT_DUPLICATE_KEY',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'JSON syntax: Duplicate key "id"' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'contracts/dup.json' },
              region: { startLine: 3, startColumn: 3, endLine: 3, endColumn: 4 },
            },
          },
        ],
        properties: { jsonPath: '$', target: 'document' },
      },
    ]);
  }, 30_000);

  it('lints a directory, as the README shows, and a glob, in SARIF as in text', async () => {
    const sarif = await toolgate('lint', '--format', 'sarif', 'contracts/');
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    expect(log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual(['contracts/dup.json']);
    expect(await toolgate('lint', 'contracts')).toEqual({
      code: 1,
      stdout: 'contracts/dup.json:3:3 error DOCUMENT_DUPLICATE_KEY JSON syntax: Duplicate key "id"\n1 error in 3 files.\n',
      stderr: '',
    });
    expect(await toolgate('lint', 'contracts/**/look*.{json,yaml}')).toEqual({ code: 0, stdout: 'No problems in 2 files.\n', stderr: '' });
    const tests = await toolgate('test', 'contracts/nested');
    expect(tests).toMatchObject({ code: 0, stdout: 'contracts/nested/lookup.yaml: no test cases\n0 passed, 0 failed\n' });
  }, 60_000);

  it('exits 2, with a message and no summary, on a directory or glob with no documents', async () => {
    expect(await toolgate('lint', 'empty')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'toolgate lint: empty holds no .json, .yaml or .yml files.\n',
    });
    expect(await toolgate('lint', '--format', 'sarif', 'contracts/*.yml')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'toolgate lint: No file matches contracts/*.yml.\n',
    });
    expect(await toolgate('test', 'empty')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'toolgate test: empty holds no .json, .yaml or .yml files.\n',
    });
  }, 60_000);

  it('exits 2 on a missing file or a usage error', async () => {
    const missing = await toolgate('lint', 'contracts/nope.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^toolgate lint: Cannot read contracts\/nope\.json: ENOENT/);
    // Never "No problems in 0 files." next to that error.
    expect(missing.stdout).toBe('Nothing linted: 1 of 1 file could not be read.\n');
    const partly = await toolgate('lint', 'contracts/lookup.json', 'contracts/nope.json');
    expect(partly).toMatchObject({ code: 2, stdout: 'No problems in 1 file. 1 of 2 files could not be read.\n' });
    // A named pipe is refused, not opened (which waits for a writer forever); bytes that are not UTF-8 too.
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    await writeFile(path.join(dir, 'latin1.json'), Buffer.from('{"id": "caf\xe9"}', 'latin1'));
    const odd = await toolgate('lint', 'pipe.json', 'latin1.json');
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain('Cannot read pipe.json: it is not a regular file');
    expect(odd.stderr).toContain('Cannot read latin1.json: it is not valid UTF-8');
    const usage = await toolgate('lint', '--format', 'xml', 'contracts/dup.json');
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe('toolgate lint: --format must be one of text, json, sarif; got "xml".');
  }, 30_000);
});
