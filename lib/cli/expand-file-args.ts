import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/** What a directory contributes: the files the linter reads (JSON and YAML). */
export const DOCUMENT_FILE_PATTERN = '**/*.{json,yaml,yml}';
// Dependencies and VCS data are never documents of the user's, even in a directory named on the command line.
const IGNORED = ['**/node_modules/**', '**/.git/**'];

export type ExpandedArgs = { ok: true; files: string[] } | { ok: false; message: string };

/**
 * Turns `toolgate lint|test` arguments into files, in order and without repeats: a directory
 * stands for every .json, .yaml and .yml file under it (recursively, sorted), a glob pattern
 * (`contracts/**\/*.yaml`) for the files it matches, anything else for itself (a file that
 * does not exist is reported when it is read). A directory or pattern that yields no file is a
 * usage error: "No problems in 0 files" must never be the answer to a typo.
 */
export async function expandFileArgs(args: readonly string[], cwd = process.cwd()): Promise<ExpandedArgs> {
  const files: string[] = [];
  const seen = new Set<string>();
  // Once per file, however it is spelt or reached: `./docs/a.json` beside `docs`, or a symbolic
  // link to a file (or a directory) linted already; the first name it was reached by is kept.
  const add = async (file: string) => {
    const key = await realpath(path.resolve(cwd, file)).catch(() => path.resolve(cwd, file));
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const arg of args) {
    const kind = await pathKind(path.resolve(cwd, arg));
    if (kind === 'directory') {
      const found = await glob(DOCUMENT_FILE_PATTERN, {
        cwd: path.resolve(cwd, arg),
        onlyFiles: true,
        ignore: IGNORED,
        expandDirectories: false,
      });
      if (found.length === 0) return { ok: false, message: `${arg} holds no .json, .yaml or .yml files.` };
      for (const file of found.sort()) await add(path.join(arg, file));
    } else if (kind === 'missing' && isDynamicPattern(arg)) {
      const found = await glob(arg, { cwd, onlyFiles: true, ignore: IGNORED, expandDirectories: false });
      if (found.length === 0) return { ok: false, message: `No file matches ${arg}.` };
      for (const file of found.sort()) await add(file);
    } else {
      await add(arg);
    }
  }
  return { ok: true, files };
}

async function pathKind(file: string): Promise<'directory' | 'other' | 'missing'> {
  try {
    return (await stat(file)).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}
