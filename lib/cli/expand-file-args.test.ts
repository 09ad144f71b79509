import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandFileArgs } from './expand-file-args';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'toolgate-expand-'));
  for (const file of ['docs/b.yaml', 'docs/a.json', 'docs/deep/c.yml', 'docs/notes.md', 'docs/node_modules/x/d.json', 'other/e.json']) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), '{}');
  }
  await mkdir(path.join(dir, 'nothing'));
  // A link to a file, and a link back up the tree (a loop).
  await mkdir(path.join(dir, 'linked/sub'), { recursive: true });
  await writeFile(path.join(dir, 'linked/a.json'), '{}');
  await symlink('../a.json', path.join(dir, 'linked/sub/alias.json'));
  await symlink('..', path.join(dir, 'linked/sub/up'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('expandFileArgs', () => {
  it('turns a directory into its JSON and YAML files, recursively and sorted, leaving out node_modules', async () => {
    expect(await expandFileArgs(['docs'], dir)).toEqual({ ok: true, files: ['docs/a.json', 'docs/b.yaml', 'docs/deep/c.yml'] });
    expect(await expandFileArgs(['docs/'], dir)).toEqual({ ok: true, files: ['docs/a.json', 'docs/b.yaml', 'docs/deep/c.yml'] });
  });

  it('expands globs, keeps plain names (existing or not) as given, and lists each file once', async () => {
    expect(await expandFileArgs(['**/*.json'], dir)).toEqual({ ok: true, files: ['docs/a.json', 'linked/a.json', 'other/e.json'] });
    expect(await expandFileArgs(['docs/notes.md', 'missing.json', 'docs/a.json', 'docs'], dir)).toEqual({
      ok: true,
      files: ['docs/notes.md', 'missing.json', 'docs/a.json', 'docs/b.yaml', 'docs/deep/c.yml'],
    });
  });

  it('lists a file once however it is reached: another spelling, a link to it, a link up the tree', async () => {
    expect(await expandFileArgs(['linked', './linked/a.json', 'linked/**/*.json', path.join(dir, 'linked/a.json')], dir)).toEqual({
      ok: true,
      files: ['linked/a.json'],
    });
    expect(await expandFileArgs(['docs/a.json', './docs/a.json', 'docs//a.json', 'missing.json', './missing.json'], dir)).toEqual({
      ok: true,
      files: ['docs/a.json', 'missing.json'],
    });
  });

  it('is a usage error when a directory or a pattern yields nothing', async () => {
    expect(await expandFileArgs(['nothing'], dir)).toEqual({ ok: false, message: 'nothing holds no .json, .yaml or .yml files.' });
    expect(await expandFileArgs(['docs', 'other/*.yaml'], dir)).toEqual({ ok: false, message: 'No file matches other/*.yaml.' });
  });
});
