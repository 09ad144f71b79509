// The Next build that `npm run build` makes and `npm start` serves (docs/operations.md).
//
// A build is current when its directory has a BUILD_ID and a stamp equal to the hash of what the
// build is made from (below), so a build made by `npm run build` is what `npm start` serves, an
// uncommitted change rebuilds only when it touches those inputs, and a checkout without git works.
// Concurrent starts of one checkout take a lock on the build directory: one builds, the others
// wait for it, see a current build and serve it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { sourceStamp as hashInputs } from './source-stamp.mjs';

/** What `next build` reads: the app's sources and the settings that change its output. */
const INPUT_DIRS = ['app', 'components', 'lib', 'public'];
const INPUT_FILES = [
  'next.config.js',
  'proxy.ts',
  'postcss.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
];
const STAMP_FILE = 'toolgate-build-stamp';
const STAMP_VERSION = 'toolgate-build-v1';

/** The build directory: TOOLGATE_DIST_DIR (relative to the checkout), else .next. */
export function appDistDir(root: string): string {
  return path.join(root, process.env.TOOLGATE_DIST_DIR || '.next');
}

/** SHA-256 over the path and content of every build input, in a fixed order. */
export function sourceStamp(root: string): string {
  return hashInputs(root, { version: STAMP_VERSION, dirs: INPUT_DIRS, files: INPUT_FILES });
}

export function buildIsCurrent(distDir: string, stamp: string): boolean {
  const file = path.join(distDir, STAMP_FILE);
  return existsSync(path.join(distDir, 'BUILD_ID')) && existsSync(file) && readFileSync(file, 'utf8') === stamp;
}

export interface EnsureBuildOptions {
  root: string;
  distDir?: string;
  /** Build even when current (`npm run build -- --force`). */
  force?: boolean;
  /** Runs the build; `next build` by default (tests pass their own). */
  build?: () => Promise<void>;
  log?: (line: string) => void;
  /** How long a lock may go without its holder touching it before it is taken over. */
  staleMs?: number;
}

/**
 * Makes sure the build directory holds a current build, building it under the directory's lock
 * if not. Returns whether this call built it.
 */
export async function ensureAppBuild(options: EnsureBuildOptions): Promise<{ built: boolean; stamp: string }> {
  const { root } = options;
  const distDir = options.distDir ?? appDistDir(root);
  const log = options.log ?? ((line: string) => console.log(line));
  const build = options.build ?? (() => nextBuild(root));
  const stamp = sourceStamp(root);
  if (!options.force && buildIsCurrent(distDir, stamp)) return { built: false, stamp };
  const release = await lockBuildDir(root, distDir, options.staleMs ?? 30_000, log);
  try {
    // Another start may have built it while this one waited.
    if (!options.force && buildIsCurrent(distDir, stamp)) return { built: false, stamp };
    log(`toolgate: building the app into ${path.relative(root, distDir) || distDir} (about a minute)...`);
    await build();
    writeFileSync(path.join(distDir, STAMP_FILE), stamp);
    return { built: true, stamp };
  } finally {
    await release();
  }
}

/**
 * The lock is a directory beside the other server files (proper-lockfile), refreshed while held;
 * one whose holder died (killed mid-build) goes stale after `staleMs` and is taken over.
 */
async function lockBuildDir(root: string, distDir: string, staleMs: number, log: (line: string) => void): Promise<() => Promise<void>> {
  const locks = path.join(root, '.toolgate', 'build-locks');
  mkdirSync(locks, { recursive: true });
  const lockfilePath = path.join(locks, `${path.relative(root, distDir).replace(/[^\w.-]/g, '_') || 'dist'}.lock`);
  const options = {
    realpath: false,
    lockfilePath,
    stale: staleMs,
    // A lost lock means another start may build at the same time; Next then refuses one of them.
    onCompromised: (error: Error) => log(`toolgate: the build lock was lost (${error.message}); another start may be building too`),
  };
  try {
    return await lockfile.lock(distDir, options);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
  }
  log(`toolgate: another start is building ${path.relative(root, distDir) || distDir}; waiting for it...`);
  // Up to 15 minutes: a build on two busy cores takes a few.
  return lockfile.lock(distDir, { ...options, retries: { retries: 900, factor: 1, minTimeout: 1000, maxTimeout: 1000 } });
}

function nextBuild(root: string): Promise<void> {
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  return new Promise((resolve, reject) => {
    // Asynchronous: the lock is refreshed from this process's event loop while Next builds.
    const child = spawn(process.execPath, [nextBin, 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    // A start stopped mid-build stops its build too (an orphaned one would go on writing into
    // the directory the next start builds into); exiting releases the lock.
    const stop = (signal: NodeJS.Signals) => {
      child.kill(signal);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (code === 0) resolve();
      else reject(new Error(`next build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}
