// The hash that says whether a build is current: over the path and content of every input, in
// a fixed order. Shared by the Next build (scripts/app-build.ts) and the server bundle
// (scripts/build-server.mjs); plain JavaScript because serve.mjs loads it before any TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Tests are not part of any build; editing one must not cost a rebuild. */
const NOT_INPUT = /\.test\.tsx?$/;

/**
 * SHA-256 (hex) of `version`, then each input file's path and content, files found below
 * `dirs` (node_modules and tests skipped) and those of `files` that exist, sorted.
 * @param {string} root
 * @param {{ version: string; dirs: readonly string[]; files: readonly string[] }} inputs
 * @returns {string}
 */
export function sourceStamp(root, { version, dirs, files }) {
  const hash = createHash('sha256').update(version);
  const all = [...files.filter((file) => existsSync(path.join(root, file))), ...dirs.flatMap((dir) => listFiles(root, dir))].sort();
  for (const file of all)
    hash
      .update(`\0${file}\0`)
      .update(file === 'tsconfig.json' ? compilerOptions(path.join(root, file)) : readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

/** @param {string} root @param {string} dir @returns {string[]} */
function listFiles(root, dir) {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listFiles(root, relative);
    return entry.isFile() && !NOT_INPUT.test(entry.name) ? [relative] : [];
  });
}

/**
 * `next build` adds its build directory's type folders to tsconfig.json's `include` the first
 * time it builds into a new TOOLGATE_DIST_DIR; only the compiler options change the output.
 * @param {string} file @returns {string}
 */
function compilerOptions(file) {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.stringify(JSON.parse(text).compilerOptions ?? null);
  } catch {
    return text;
  }
}
