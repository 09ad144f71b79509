// npm start: migrate the database, create the first tenant (or the demo tenant) on an empty
// database, build the app unless its build is current (scripts/app-build.ts), then serve
// everything on one port: the runtime endpoints on the lean data-plane server, every other path
// through Next. The first start's sign-in and key are printed last, once the server is ready.
//   --dev          Next in development mode (no build)
//   --data-plane   the runtime endpoints only: no Next, no bootstrap (scale-out instances)
//   --build        build the app if it is not current, then exit (npm run build; --force: always)
import next from 'next';
import { ConfigurationError, env, unknownSettingWarnings, type Env } from '../lib/env';
import { DatabaseStartError, migrateDatabase } from '../lib/db/migrate-database';
import { projectRoot } from '../lib/db/schema-engine';
import { parseDatabaseUrl } from '../lib/db/database-url';
import { watchDatabaseFile } from '../lib/db/database-file';
import { bootstrap } from '../lib/tenants/bootstrap';
import { disconnectDb } from '../lib/db';
import { createDataPlaneServer, drainDataPlaneServer, type NodeHandler } from '../lib/data-plane/server';
import type { HttpMethod } from '../lib/api/http-methods';
import { closeEvidenceWriter, setRawEvidenceStore } from '../lib/evidence/record-evidence';
import { threadedEvidenceStore } from '../lib/evidence/evidence-writer-thread';
import { startBackgroundJobs, stopBackgroundJobs } from '../lib/jobs/background-jobs';
import { startTraceExport, stopTraceExport } from '../lib/telemetry/trace-export';
import { endApprovalWaits } from '../lib/approvals/wait-for-approval';
import { passwordResetMailsSettled } from '../lib/members/request-password-reset';
import { ensureAppBuild } from './app-build';

process.env.NEXT_TELEMETRY_DISABLED = '1';
const dev = process.argv.includes('--dev');
const dataPlaneOnly = process.argv.includes('--data-plane');
const root = projectRoot();

if (process.argv.includes('--build')) {
  // No settings or database needed: a build can be made before either exists.
  try {
    const { built } = await ensureAppBuild({ root, force: process.argv.includes('--force') });
    console.log(built ? 'toolgate: build ready; npm start serves it' : 'toolgate: the build is current; nothing to do (--force rebuilds)');
    process.exit(0);
  } catch (error) {
    console.error(`toolgate: ${(error as Error).message}`);
    process.exit(1);
  }
}

let settings: Env;
try {
  settings = env();
  // A bad TOOLGATE_OIDC_* setting (a role mapping naming no role, half the client settings) stops
  // start-up here with its message, not at the first sign-in.
  (await import('../lib/auth/sso-config')).parseSsoConfig(settings);
} catch (error) {
  // The operator's to fix: the message alone, not a crash's stack trace around it.
  if (!(error instanceof ConfigurationError) && (error as Error).name !== 'SsoConfigError') throw error;
  console.error(`toolgate: ${(error as Error).message}`);
  process.exit(1);
}
for (const warning of unknownSettingWarnings()) console.warn(`toolgate: warning: ${warning}`);
let migrated: Awaited<ReturnType<typeof migrateDatabase>>;
try {
  migrated = await migrateDatabase(settings.DATABASE_URL);
} catch (error) {
  // A database that cannot be reached or written: the cause in one line (never the URL, which
  // may hold a password), not the schema engine's stack trace.
  const message = error instanceof Error ? (error.message.split('\n').find((line) => line.trim()) ?? error.name) : String(error);
  console.error(
    `toolgate: ${error instanceof DatabaseStartError ? message : `cannot migrate the database DATABASE_URL names: ${message}`}`,
  );
  process.exit(1);
}
const { provider, applied } = migrated;
const databaseFile = parseDatabaseUrl(settings.DATABASE_URL).file;
if (databaseFile) watchDatabaseFile(databaseFile);
console.log(applied.length ? `toolgate: ${provider} migrated (${applied.join(', ')})` : `toolgate: ${provider} schema up to date`);

let fallback: NodeHandler | undefined;
let apiAllowedMethods: ((pathname: string) => HttpMethod[] | null) | undefined;
// What the first start prints (the demo sign-in and key): kept for after the build output.
let bootstrapLines: string[] = [];
if (!dataPlaneOnly) {
  const report = await bootstrap();
  if (report.refused) {
    console.error(`toolgate: ${report.refused}`);
    process.exit(1);
  }
  bootstrapLines = report.lines;
  if (report.incomplete) {
    // Its sign-in and key exist and are shown only now: printed before the start gives up.
    console.error(`toolgate: ${report.incomplete}`);
    for (const line of bootstrapLines) console.log(line);
    process.exit(1);
  }
  // The demo tenant's calls were recorded on this thread, at their times in the past (the
  // writer thread keeps its own clock): that writer goes, so the server can choose its store.
  await closeEvidenceWriter();
  if (!dev) {
    try {
      await ensureAppBuild({ root });
    } catch (error) {
      console.error(`toolgate: ${(error as Error).message}`);
      for (const line of bootstrapLines) console.log(line);
      process.exit(1);
    }
  }
  const app = next({ dev, dir: root, hostname: settings.HOSTNAME, port: settings.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  fallback = (req, res) => handle(req, res);
  // What each API route allows, for methods Next cannot take (the data-plane server answers them).
  apiAllowedMethods = (await import('../lib/api/api-methods')).apiAllowedMethods;
}

// After the first tenant exists, so a new database records its secret without a warning.
const secretWarning = await (await import('../lib/auth/instance-secret')).noteInstanceSecret();
if (secretWarning) console.warn(`toolgate: warning: ${secretWarning}`);

setRawEvidenceStore(threadedEvidenceStore);
// Decisions as OpenTelemetry spans when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md).
await startTraceExport();
const server = createDataPlaneServer({
  fallback,
  apiAllowedMethods,
  trustedProxies: settings.TOOLGATE_TRUSTED_PROXIES,
});
startBackgroundJobs();
server.once('error', (error) => {
  // Listening failed (the port is taken): the first start's one-time sign-in and key still show.
  console.error(`toolgate: cannot listen on ${settings.HOSTNAME}:${settings.PORT}: ${error.message}`);
  for (const line of bootstrapLines) console.log(line);
  process.exit(1);
});
server.listen(settings.PORT, settings.HOSTNAME, () => {
  console.log(
    `toolgate: ${dataPlaneOnly ? 'data plane' : 'ready'} on http://${settings.HOSTNAME}:${settings.PORT}${dataPlaneOnly ? ' (runtime endpoints only)' : ''}`,
  );
  for (const line of bootstrapLines) console.log(line);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Finish what is in flight (each answer waits for its evidence), then close the stores.
    endApprovalWaits();
    const graceMs = settings.TOOLGATE_DRAIN_GRACE_SECONDS * 1000;
    drainDataPlaneServer(
      server,
      () => {
        void stopBackgroundJobs()
          // A reset link asked for a moment ago is still mailed (its request was answered 202).
          .finally(() => passwordResetMailsSettled())
          .finally(() => Promise.allSettled([closeEvidenceWriter(), disconnectDb()]))
          // The spans of the last decisions, once their records are committed.
          .then(() => stopTraceExport())
          .finally(() => process.exit(0));
      },
      graceMs,
    );
    setTimeout(() => process.exit(0), graceMs + 10_000).unref();
  });
}
