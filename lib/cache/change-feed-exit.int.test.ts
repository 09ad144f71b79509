import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

// A script that used the caches (whose change poller runs every TOOLGATE_CACHE_POLL_MS) and then
// disconnected must exit on its own: a poll after disconnectDb used to open a new client, whose
// PostgreSQL pool kept the process alive for ever (the benches' setup step hung on it).
it('a script that disconnects exits although the change poller was running', async () => {
  const script = `
    import { onChange } from ${JSON.stringify(path.join(root, 'lib/cache/change-feed.ts'))};
    import { db, disconnectDb } from ${JSON.stringify(path.join(root, 'lib/db.ts'))};
    onChange('contracts', () => {});
    await db().changeCounter.findMany();
    await disconnectDb();
    // Long enough for several polls.
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.log('done');
  `;
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, TOOLGATE_CACHE_POLL_MS: '50' },
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
  expect({ exited, output: output.trim().slice(-500) }).toEqual({ exited: 0, output: 'done' });
}, 40_000);
