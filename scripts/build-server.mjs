// The production server (npm start, npm run data-plane) runs as one esbuild bundle of
// scripts/start.ts, not as TypeScript compiled on load by tsx. tsx compiles with keepNames,
// which wraps every named function the code creates in an Object.defineProperty call; on the
// data plane, where closures are made per request, the bundle measured about 18% less CPU per
// request on the request thread (bench/validate/thread-cpu.ts). Packages stay external and load
// from node_modules as usual; only this repository's TypeScript is bundled.
//
// The output directory is named by the bundle's content hash, so concurrent starts of one
// checkout (several data-plane instances) never write over a bundle another one is loading.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outRoot = path.join(root, '.toolgate', 'server');
// A running server loads its writer thread's file from its bundle directory when it first
// records evidence (and again if that thread dies), so other bundles are removed only when no
// start has used them for a week.
const KEEP_OLD_BUNDLES_MS = 7 * 24 * 60 * 60 * 1000;

/** Builds the server bundle if this checkout's sources changed; returns the entry's path. */
export async function buildServer() {
  const result = await esbuild.build({
    entryPoints: {
      start: path.join(root, 'scripts', 'start.ts'),
      // Loaded by lib/evidence/sqlite-writer-thread.ts as ./sqlite-writer-thread.worker.mjs.
      'sqlite-writer-thread.worker': path.join(root, 'lib', 'evidence', 'sqlite-writer-thread.worker.ts'),
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
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(path.relative(outRoot, file.path)).update(file.contents);
  const dir = path.join(outRoot, hash.digest('hex').slice(0, 16));
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
  const now = new Date();
  utimesSync(dir, now, now);
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
