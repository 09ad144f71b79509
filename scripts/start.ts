// npm start: migrate the database, create the first tenant (or the demo tenant) on an empty
// database, build the app if this checkout has no build yet, then serve everything on one port:
// the runtime endpoints on the lean data-plane server, every other path through Next.
//   --dev          Next in development mode (no build)
//   --data-plane   the runtime endpoints only: no Next, no bootstrap (scale-out instances)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import next from 'next';
import { env } from '../lib/env';
import { migrateDatabase } from '../lib/db/migrate-database';
import { projectRoot } from '../lib/db/schema-engine';
import { bootstrap } from '../lib/tenants/bootstrap';
import { disconnectDb } from '../lib/db';
import { createDataPlaneServer, type NodeHandler } from '../lib/data-plane/server';
import { closeEvidenceWriter, setRawEvidenceStore } from '../lib/evidence/record-evidence';
import { threadedEvidenceStore } from '../lib/evidence/sqlite-writer-thread';
import { startBackgroundJobs, stopBackgroundJobs } from '../lib/jobs/background-jobs';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const dev = process.argv.includes('--dev');
const dataPlaneOnly = process.argv.includes('--data-plane');
const root = projectRoot();
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const distDir = path.join(root, process.env.TOOLGATE_DIST_DIR || '.next');

const settings = env();
const { provider, applied } = await migrateDatabase(settings.DATABASE_URL);
console.log(applied.length ? `toolgate: ${provider} migrated (${applied.join(', ')})` : `toolgate: ${provider} schema up to date`);

let fallback: NodeHandler | undefined;
if (!dataPlaneOnly) {
  const report = await bootstrap();
  for (const line of report.lines) console.log(line);
  if (!dev && !buildIsCurrent()) {
    console.log('toolgate: building the app (first start only, about a minute)...');
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
    const stamp = sourceStamp();
    if (stamp) writeFileSync(path.join(distDir, 'toolgate-build-stamp'), stamp);
  }
  const app = next({ dev, dir: root, hostname: settings.HOSTNAME, port: settings.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  fallback = (req, res) => handle(req, res);
}

setRawEvidenceStore(threadedEvidenceStore);
const server = createDataPlaneServer({ fallback });
startBackgroundJobs();
server.listen(settings.PORT, settings.HOSTNAME, () => {
  console.log(`toolgate: ${dataPlaneOnly ? 'data plane' : 'ready'} on http://${settings.HOSTNAME}:${settings.PORT}${dataPlaneOnly ? ' (runtime endpoints only)' : ''}`);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Finish what is in flight (each answer waits for its evidence), then close the stores.
    server.close(() => {
      void stopBackgroundJobs().finally(() => Promise.allSettled([closeEvidenceWriter(), disconnectDb()]).then(() => process.exit(0)));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}

/** A build is current when it was made from the same git commit and the tree is clean. */
function buildIsCurrent(): boolean {
  const buildId = path.join(distDir, 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const stamp = path.join(distDir, 'toolgate-build-stamp');
  const current = sourceStamp();
  return current !== null && existsSync(stamp) && readFileSync(stamp, 'utf8') === current;
}

function sourceStamp(): string | null {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'app', 'components', 'lib', 'next.config.js', 'package-lock.json'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0 || dirty.status !== 0 || dirty.stdout.trim() !== '') return null;
  return head.stdout.trim();
}
