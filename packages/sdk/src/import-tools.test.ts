import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.ts';
import * as exampleTools from './testing/example-tools.ts';
import { importTools, parseImportToolsArgs, runImportTools } from './import-tools.ts';
import { ToolgateError } from './toolgate-error.ts';
import type { SavedContractDraft } from './wire-types.ts';

function recordingClient(fail: (document: Record<string, unknown>) => Error | undefined = () => undefined) {
  const saved: Record<string, unknown>[] = [];
  return {
    saved,
    client: {
      saveContractDraft: async (document: object): Promise<SavedContractDraft> => {
        const doc = document as Record<string, unknown>;
        const error = fail(doc);
        if (error) throw error;
        saved.push(doc);
        return { tool: String(doc.id), version: String(doc.version), status: 'draft', contentHash: 'h', created: saved.length === 1 };
      },
    },
  };
}

const incomplete = defineTool({
  name: 'notes_add',
  description: 'Add a note',
  input: z.object({ text: z.string() }),
  output: z.object({}),
  execute: () => ({}),
  contract: { id: 'notes.add' },
});
const ownerless = defineTool({
  name: 'notes_list',
  description: 'List notes',
  input: z.object({}),
  output: z.object({}),
  execute: () => ({}),
  contract: { id: 'notes.list', kind: 'query', side_effect_level: 'read_only', idempotent: true, version: '0.3.0' },
});

describe('parseImportToolsArgs', () => {
  it('reads flags in both spellings, env fallbacks and modules', () => {
    expect(parseImportToolsArgs(['--url', 'http://h:3000', '--key=tg_1', '--version', '2.0.0', 'a.ts', 'b.ts'])).toEqual({
      ok: true,
      args: { url: 'http://h:3000', key: 'tg_1', version: '2.0.0', owner: undefined, modules: ['a.ts', 'b.ts'] },
    });
    expect(parseImportToolsArgs(['a.ts'], { TOOLGATE_URL: 'http://env', TOOLGATE_API_KEY: 'tg_env' })).toMatchObject({
      ok: true,
      args: { url: 'http://env', key: 'tg_env' },
    });
  });

  it('explains what is missing or wrong', () => {
    expect(parseImportToolsArgs([])).toMatchObject({
      ok: false,
      help: false,
      message: expect.stringMatching(/^Missing --url, --key, at least one module\./),
    });
    expect(parseImportToolsArgs(['--nope', 'x'])).toMatchObject({ ok: false, message: expect.stringMatching(/^Unknown option --nope/) });
    expect(parseImportToolsArgs(['--url'])).toMatchObject({ ok: false, message: expect.stringMatching(/^--url needs a value/) });
    expect(parseImportToolsArgs(['--help'])).toMatchObject({ ok: false, help: true });
  });
});

describe('importTools', () => {
  it('saves every defineTool export once, and reports each one', async () => {
    const { client, saved } = recordingClient();
    const result = await importTools({
      client,
      modules: ['tools.ts'],
      load: async () => ({ ...exampleTools, alias: exampleTools.createUser, notATool: { name: 'x' } }),
    });
    expect(result.ok).toBe(true);
    expect(result.lines.map((l) => l.text)).toEqual([
      'saved   users.create@1.0.0 as a new draft (tools.ts#createUser)',
      'saved   docs.search@1.0.0 as a replaced draft (tools.ts#searchDocs)',
    ]);
    expect(saved.map((d) => d.id)).toEqual(['users.create', 'docs.search']);
    expect(saved[0]).toMatchObject({ owner: 'team-identity', annotations: { kind: 'mutation' }, input: { type: 'object' } });
  });

  it("--version overrides, a tool's own version is kept otherwise, --owner fills gaps", async () => {
    const { client, saved } = recordingClient();
    await importTools({ client, modules: ['m.ts'], load: async () => ({ ownerless }), owner: 'team-notes' });
    expect(saved[0]).toMatchObject({ version: '0.3.0', owner: 'team-notes' });
    await importTools({
      client,
      modules: ['m.ts'],
      load: async () => ({ ownerless, createUser: exampleTools.createUser }),
      owner: 'team-notes',
      version: '4.0.0',
    });
    expect(saved.slice(1).map((d) => [d.id, d.version, d.owner])).toEqual([
      ['notes.list', '4.0.0', 'team-notes'],
      ['users.create', '4.0.0', 'team-identity'],
    ]);
  });

  it('reports local problems, server errors, empty and broken modules, and duplicate ids as failures', async () => {
    const { client } = recordingClient((doc) =>
      doc.id === 'docs.search'
        ? new ToolgateError({
            status: 409,
            code: 'conflict',
            message: 'docs.search@1.0.0 is already published and cannot change; save it as a new version.',
          })
        : doc.id === 'users.create' && doc.owner === 'nobody'
          ? new ToolgateError({
              status: 422,
              code: 'contract_invalid',
              message: 'The contract document is invalid',
              details: { problems: [{ path: 'owner', message: 'bad' }] },
            })
          : undefined,
    );
    const modules: Record<string, Record<string, unknown>> = {
      'a.ts': { incomplete, searchDocs: exampleTools.searchDocs, createUser: exampleTools.createUser },
      'b.ts': { createUserAgain: exampleTools.createUser },
      'empty.ts': { helper: () => 1 },
    };
    const result = await importTools({
      client,
      modules: ['a.ts', 'b.ts', 'empty.ts', 'missing.ts'],
      load: async (name) => {
        const namespace = modules[name];
        if (!namespace) throw new Error(`Cannot find module '${name}'`);
        return namespace;
      },
    });
    expect(result.ok).toBe(false);
    const texts = result.lines.map((l) => l.text);
    expect(texts[0]).toMatch(
      /^failed {2}notes\.add \(a\.ts#incomplete\): Tool "notes\.add" cannot become a contract: - owner: missing.* - annotations\.kind: missing/,
    );
    expect(texts.slice(1)).toEqual([
      'failed  docs.search@1.0.0 (a.ts#searchDocs): 409 conflict: docs.search@1.0.0 is already published and cannot change; save it as a new version.',
      'saved   users.create@1.0.0 as a new draft (a.ts#createUser)',
      'failed  users.create@1.0.0 (b.ts#createUserAgain): a.ts#createUser already defines users.create',
      'failed  empty.ts: exports no defineTool tools',
      "failed  missing.ts: cannot load the module: Cannot find module 'missing.ts'",
    ]);
  });

  it("prints the server's contract problems", async () => {
    const { client } = recordingClient(
      () =>
        new ToolgateError({
          status: 422,
          code: 'contract_invalid',
          message: 'The contract document is invalid: owner: Too small',
          details: { problems: [{ path: 'owner', message: 'Too small' }] },
        }),
    );
    const result = await importTools({ client, modules: ['m.ts'], load: async () => ({ createUser: exampleTools.createUser }) });
    expect(result.lines[0]?.text).toBe(
      'failed  users.create@1.0.0 (m.ts#createUser): 422 contract_invalid: The contract document is invalid: owner: Too small [owner: Too small]',
    );
  });
});

describe('runImportTools', () => {
  it('exits 2 on usage errors, 0 for --help, 1 when anything failed', async () => {
    const printed: string[] = [];
    const print = (line: string) => printed.push(line);
    expect(await runImportTools({ argv: [], load: async () => ({}), print })).toBe(2);
    expect(await runImportTools({ argv: ['--help'], load: async () => ({}), print })).toBe(0);
    const down = async () =>
      new Response(
        JSON.stringify({
          error: { code: 'unauthorized', message: 'The API key is missing, malformed, unknown or revoked.' },
          request_id: 'r',
        }),
        { status: 401 },
      );
    expect(
      await runImportTools({
        argv: ['--url', 'http://tg', '--key', 'k', 'm.ts'],
        load: async () => ({ createUser: exampleTools.createUser }),
        fetch: down,
        print,
      }),
    ).toBe(1);
    expect(printed.at(-2)).toBe(
      'failed  users.create@1.0.0 (m.ts#createUser): 401 unauthorized: The API key is missing, malformed, unknown or revoked.',
    );
    expect(printed.at(-1)).toBe('1 of 1 failed.');
  });
});

describe('npm run import-tools (the script, end to end against a stand-in server)', () => {
  it('loads a TypeScript module with tsx and saves its tools over HTTP', async () => {
    const received: { auth: string | undefined; body: Record<string, unknown> }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const document = JSON.parse(body) as Record<string, unknown>;
        received.push({ auth: request.headers.authorization, body: document });
        response.writeHead(request.url === '/api/v1/contracts' ? 201 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ tool: document.id, version: document.version, status: 'draft', contentHash: 'h', created: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const root = path.resolve(import.meta.dirname, '../../..');
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/import-tools.ts',
          '--url',
          `http://127.0.0.1:${port}`,
          '--key',
          'tg_script',
          '--version',
          '1.1.0',
          'packages/sdk/src/testing/example-tools.ts',
        ],
        { cwd: root },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(stdout.trim().split('\n')).toEqual([
        'saved   users.create@1.1.0 as a new draft (packages/sdk/src/testing/example-tools.ts#createUser)',
        'saved   docs.search@1.1.0 as a new draft (packages/sdk/src/testing/example-tools.ts#searchDocs)',
        '2 saved as drafts.',
      ]);
      expect(code).toBe(0);
      expect(received.map((r) => [r.auth, r.body.id])).toEqual([
        ['Bearer tg_script', 'users.create'],
        ['Bearer tg_script', 'docs.search'],
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 30_000);
});
