// The production server (npm start, npm run data-plane) runs as one esbuild bundle of
// scripts/start.ts, not as TypeScript compiled on load by tsx. tsx compiles with keepNames,
// which wraps every named function the code creates in an Object.defineProperty call; on the
// data plane, where closures are made per request, the bundle measured about 18% less CPU per
// request on the request thread (bench/validate/thread-cpu.ts). Packages stay external and load
// from node_modules as usual; only this repository's TypeScript is bundled.
//
// `npm run build` makes the bundle; `npm start` serves the one made for the current sources and
// bundles only when there is none (a checkout that was never built, or sources changed since).
// The output directory is named by a hash of the bundle's inputs, so a start finds its bundle
// without running esbuild, and concurrent starts of one checkout (several data-plane instances)
// never write over a bundle another one is loading.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { sourceStamp } from './source-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outRoot = path.join(root, '.toolgate', 'server');
// A running server loads its writer thread's file from its bundle directory when it first
// records evidence (and again if that thread dies), so other bundles are removed only when no
// start has used them for a week.
const KEEP_OLD_BUNDLES_MS = 7 * 24 * 60 * 60 * 1000;

/** What the bundle is made from: this repository's server-side sources and the settings that change it. */
const INPUT_DIRS = ['lib', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

/** The bundle directory's name: a hash of its inputs. */
function inputStamp() {
  return sourceStamp(root, { version: 'toolgate-server-v1', dirs: INPUT_DIRS, files: INPUT_FILES }).slice(0, 16);
}

/** The entry of the bundle made for the current sources, or null when there is none yet. */
export function currentServer() {
  const entry = path.join(outRoot, inputStamp(), 'start.mjs');
  if (!existsSync(entry)) return null;
  markInUse(path.dirname(entry));
  return entry;
}

/**
 * Marks a bundle as in use, so starts of other sources do not prune it. A read-only checkout or
 * another user than the one who built it (an image built as root, run as nobody) cannot, and
 * need not: nothing there prunes it either. Refused with EPERM, `npm start` stopped with a stack.
 */
function markInUse(dir) {
  const now = new Date();
  try {
    utimesSync(dir, now, now);
  } catch (error) {
    if (!['EPERM', 'EACCES', 'EROFS'].includes(error?.code)) throw error;
  }
}

/** Builds the server bundle for the current sources unless it exists; returns the entry's path. */
export async function buildServer() {
  const stamp = inputStamp();
  const made = path.join(outRoot, stamp, 'start.mjs');
  if (existsSync(made)) return made;
  const result = await esbuild.build({
    entryPoints: {
      start: path.join(root, 'scripts', 'start.ts'),
      // Loaded by lib/evidence/evidence-writer-thread.ts as ./evidence-writer-thread.worker.mjs.
      'evidence-writer-thread.worker': path.join(root, 'lib', 'evidence', 'evidence-writer-thread.worker.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    outdir: outRoot,
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  const dir = path.join(outRoot, stamp);
  if (!existsSync(path.join(dir, 'start.mjs'))) {
    mkdirSync(dir, { recursive: true });
    // Each file is written beside its final name and renamed into place: a reader sees a whole
    // file or none; start.mjs goes last, so its presence means the bundle is complete.
    const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('start.mjs')) - Number(b.path.endsWith('start.mjs')));
    for (const file of files) {
      const target = path.join(dir, path.relative(outRoot, file.path));
      const temporary = `${target}.${process.pid}.tmp`;
      writeFileSync(temporary, file.path.endsWith('.map') ? oneLevelDeeper(file.text) : file.contents);
      renameSync(temporary, target);
    }
  }
  markInUse(dir);
  pruneOldBundles(dir);
  return path.join(dir, 'start.mjs');
}

/** A source map's sources are relative to outRoot; the bundle lives one directory below it. */
function oneLevelDeeper(mapText) {
  const map = JSON.parse(mapText);
  map.sources = map.sources.map((source) => `../${source}`);
  return JSON.stringify(map);
}

function pruneOldBundles(current) {
  for (const entry of readdirSync(outRoot)) {
    const dir = path.join(outRoot, entry);
    try {
      if (dir !== current && Date.now() - statSync(dir).mtimeMs > KEEP_OLD_BUNDLES_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another start meanwhile.
    }
  }
}
