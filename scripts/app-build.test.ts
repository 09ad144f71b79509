import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIsCurrent, ensureAppBuild, sourceStamp } from './app-build';

let root = '';

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

/** Stands in for `next build`: counts its runs and writes what Next leaves behind. */
function fakeBuild(options: { ms?: number } = {}) {
  const runs = { count: 0, concurrent: 0, maxConcurrent: 0 };
  const build = async () => {
    runs.count++;
    runs.concurrent++;
    runs.maxConcurrent = Math.max(runs.maxConcurrent, runs.concurrent);
    await new Promise((resolve) => setTimeout(resolve, options.ms ?? 10));
    mkdirSync(path.join(root, '.next'), { recursive: true });
    writeFileSync(path.join(root, '.next', 'BUILD_ID'), `build-${runs.count}`);
    runs.concurrent--;
  };
  return { runs, build };
}

const quiet = () => undefined;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolgate-build-'));
  write('app/page.tsx', 'export default function Page() { return null; }');
  write('lib/thing.ts', 'export const thing = 1;');
  write('lib/thing.test.ts', 'test');
  write('next.config.js', 'export default {};');
  write('e2e/spec.ts', 'spec');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('sourceStamp', () => {
  it('changes with any build input, committed or not', () => {
    const first = sourceStamp(root);
    expect(sourceStamp(root)).toBe(first);
    write('lib/thing.ts', 'export const thing = 2;');
    const edited = sourceStamp(root);
    expect(edited).not.toBe(first);
    write('components/new.tsx', 'x');
    expect(sourceStamp(root)).not.toBe(edited);
    write('next.config.js', 'export default { poweredByHeader: false };');
    expect(sourceStamp(root)).not.toBe(edited);
  });

  it('reads only the compiler options of tsconfig.json (next build edits its include list)', () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true }, include: ['**/*.ts'] }));
    const first = sourceStamp(root);
    write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true }, include: ['**/*.ts', '.next-x/types/**/*.ts'] }, null, 2));
    expect(sourceStamp(root)).toBe(first);
    write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: false }, include: ['**/*.ts'] }));
    expect(sourceStamp(root)).not.toBe(first);
  });

  it('ignores tests and files outside the inputs', () => {
    const first = sourceStamp(root);
    write('lib/thing.test.ts', 'changed test');
    write('lib/other.int.test.ts', 'new test');
    write('e2e/spec.ts', 'changed spec');
    write('README.md', 'docs');
    expect(sourceStamp(root)).toBe(first);
  });

  it('tells a renamed file from its old name', () => {
    const first = sourceStamp(root);
    rmSync(path.join(root, 'lib/thing.ts'));
    write('lib/thing2.ts', 'export const thing = 1;');
    expect(sourceStamp(root)).not.toBe(first);
  });
});

describe('ensureAppBuild', () => {
  it('builds once, then finds the build current until an input changes', async () => {
    const { runs, build } = fakeBuild();
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(true);
    expect(buildIsCurrent(path.join(root, '.next'), sourceStamp(root))).toBe(true);
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(false);
    write('lib/thing.test.ts', 'only a test changed');
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(false);
    write('lib/thing.ts', 'export const thing = 3;');
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(true);
    expect((await ensureAppBuild({ root, build, log: quiet, force: true })).built).toBe(true);
    expect(runs.count).toBe(3);
  });

  it('does not take a directory without BUILD_ID (an interrupted build) as current', async () => {
    const { build } = fakeBuild();
    await ensureAppBuild({ root, build, log: quiet });
    rmSync(path.join(root, '.next', 'BUILD_ID'));
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(true);
  });

  it('lets one of several concurrent starts build while the others wait, then all go on', async () => {
    const { runs, build } = fakeBuild({ ms: 400 });
    const lines: string[] = [];
    const results = await Promise.all([1, 2, 3].map(() => ensureAppBuild({ root, build, log: (line) => lines.push(line) })));
    expect(runs.count).toBe(1);
    expect(runs.maxConcurrent).toBe(1);
    expect(results.map((r) => r.built).sort()).toEqual([false, false, true]);
    expect(lines.filter((line) => line.includes('waiting for it'))).toHaveLength(2);
  });

  it('releases the lock when the build fails, so the next start can build', async () => {
    await expect(
      ensureAppBuild({ root, log: quiet, build: async () => Promise.reject(new Error('next build failed (exit code 1)')) }),
    ).rejects.toThrow(/exit code 1/);
    const { runs, build } = fakeBuild();
    expect((await ensureAppBuild({ root, build, log: quiet })).built).toBe(true);
    expect(runs.count).toBe(1);
  });

  it('takes over the lock of a start that died mid-build once it is stale', async () => {
    // What a killed builder leaves: the lock directory, no longer refreshed.
    const lock = path.join(root, '.toolgate', 'build-locks', '.next.lock');
    mkdirSync(lock, { recursive: true });
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    const { runs, build } = fakeBuild();
    expect((await ensureAppBuild({ root, build, log: quiet, staleMs: 5_000 })).built).toBe(true);
    expect(runs.count).toBe(1);
  });

  it('waits for a held lock instead of failing, and takes it once stale', async () => {
    const lock = path.join(root, '.toolgate', 'build-locks', '.next.lock');
    mkdirSync(lock, { recursive: true });
    const { build } = fakeBuild();
    const started = Date.now();
    const pending = ensureAppBuild({ root, build, log: quiet, staleMs: 5_000 });
    // Nobody refreshes it, so it turns stale after 5 s and is taken over: a wait, not a failure.
    expect((await pending).built).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  }, 20_000);
});
