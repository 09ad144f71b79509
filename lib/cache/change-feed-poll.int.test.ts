import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { invalidatedCache, pollChanges, resetChangeFeedForTests } from './change-feed';
import { db } from '../db';

const root = path.resolve(import.meta.dirname, '..', '..');
const changeFeed = JSON.stringify(path.join(root, 'lib/cache/change-feed.ts'));

/** Runs `script` as an ES module under tsx; resolves with its exit code and output. */
async function runScript(script: string, env: Record<string, string>): Promise<{ exited: number | 'hung'; output: string }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = await new Promise<number | 'hung'>((resolve) => {
    const timer = setTimeout(() => resolve('hung'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? -1);
    });
  });
  if (exited === 'hung') child.kill('SIGKILL');
  return { exited, output: output.trim() };
}

// A script that used the caches (whose change poller runs every TOOLGATE_CACHE_POLL_MS) and then
// disconnected must exit on its own: a poll after disconnectDb used to open a new client, whose
// PostgreSQL pool kept the process alive for ever (the benches' setup step hung on it).
it('a script that disconnects exits although the change poller was running', async () => {
  const script = `
    import { invalidatedCache } from ${changeFeed};
    import { db, disconnectDb } from ${JSON.stringify(path.join(root, 'lib/db.ts'))};
    invalidatedCache('contracts', { maxEntries: 1, ttlMs: 1000 }).get('x');
    await db().changeCounter.findMany();
    await disconnectDb();
    // Long enough for several polls.
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.log('done');
  `;
  const run = await runScript(script, { TOOLGATE_CACHE_POLL_MS: '50' });
  expect({ exited: run.exited, output: run.output.slice(-500) }).toEqual({ exited: 0, output: 'done' });
}, 40_000);

// `next build` evaluates the route modules, which make their caches when imported, before any
// database need exist (npm run build on a fresh machine): polling must wait for a cache's use.
it('polls the database only once a cache is used, not when one is made', async () => {
  const script = `
    import { invalidatedCache } from ${changeFeed};
    const cache = invalidatedCache('contracts', { maxEntries: 1, ttlMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log('made');
    cache.get('x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log('used');
  `;
  // TOOLGATE_LOG: the child inherits VITEST, under which the log is quiet.
  const run = await runScript(script, {
    TOOLGATE_CACHE_POLL_MS: '50',
    TOOLGATE_LOG: '1',
    DATABASE_URL: 'file:/nonexistent-toolgate-dir/toolgate.db',
  });
  expect(run.exited).toBe(0);
  const [beforeUse, afterUse] = run.output.split('made');
  expect(beforeUse).not.toContain('cache change poll failed');
  expect(afterUse).toContain('cache change poll failed');
}, 40_000);

// What was cached before the first poll read the versions may predate a change that poll saw.
it('drops what was cached before its first poll of the change counters', async () => {
  resetChangeFeedForTests();
  const cache = invalidatedCache<string>('contracts', { maxEntries: 10, ttlMs: 60_000 });
  // A cache's first load, as a handler makes it: the database is opened for the read.
  expect(await cache.load('a', async () => `read before the first poll (${await db().changeCounter.count()} counters)`)).toBe(
    'read before the first poll (0 counters)',
  );
  await vi.waitFor(() => expect(cache.get('a')).toBeUndefined(), { timeout: 5_000 });
  cache.set('a', 'read after it');
  await pollChanges();
  expect(cache.get('a')).toBe('read after it');
});
