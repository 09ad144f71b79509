// npm start: migrate the database, create the first tenant (or the demo tenant) on an empty
// database, build the app if no build exists for this checkout, then serve it on PORT/HOSTNAME.
//   --dev   serve with `next dev` instead (no build)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from '../lib/env';
import { migrateDatabase } from '../lib/db/migrate-database';
import { bootstrap } from '../lib/tenants/bootstrap';
import { disconnectDb } from '../lib/db';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const dev = process.argv.includes('--dev');
const root = path.resolve(import.meta.dirname, '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

const settings = env();
const { provider, applied } = await migrateDatabase(settings.DATABASE_URL);
console.log(applied.length ? `toolgate: ${provider} migrated (${applied.join(', ')})` : `toolgate: ${provider} schema up to date`);

const report = await bootstrap();
for (const line of report.lines) console.log(line);
await disconnectDb();

if (!dev && !buildIsCurrent()) {
  console.log('toolgate: building the app (first start only, about a minute)...');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const stamp = sourceStamp();
  if (stamp) writeFileSync(path.join(root, '.next', 'toolgate-build-stamp'), stamp);
}

const child = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '-p', String(settings.PORT), '-H', settings.HOSTNAME], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

/** A build is current when it was made from the same git commit and the tree is clean. */
function buildIsCurrent(): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const stamp = path.join(root, '.next', 'toolgate-build-stamp');
  const current = sourceStamp();
  return current !== null && existsSync(stamp) && readFileSync(stamp, 'utf8') === current;
}

function sourceStamp(): string | null {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'app', 'components', 'lib', 'next.config.js', 'package-lock.json'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0 || dirty.status !== 0 || dirty.stdout.trim() !== '') return null;
  return head.stdout.trim();
}
