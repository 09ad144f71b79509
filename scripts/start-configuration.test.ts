import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readMigrationList } from '../lib/db/schema-engine';

/**
 * `npm start` with a bad setting, as an operator runs it (scripts/serve.mjs in a child process):
 * it stops before touching the database, with the message alone on stderr, not an uncaught
 * exception's source excerpt and stack trace around it.
 */

const serve = path.resolve(import.meta.dirname, 'serve.mjs');

function start(settings: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Only what a shell would pass, without the test run's own Toolgate settings.
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'file:/nonexistent/never-opened.db' };
  for (const name of Object.keys(env)) if (name.startsWith('TOOLGATE_')) delete env[name];
  Object.assign(env, settings);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serve], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start with a bad setting', () => {
  it('half the SSO settings: exit 1 with the message naming what is missing, and no stack trace', async () => {
    const run = await start({ TOOLGATE_OIDC_ISSUER: 'https://sso.example.com' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'toolgate: Invalid SSO configuration: TOOLGATE_OIDC_ISSUER, TOOLGATE_OIDC_CLIENT_ID and TOOLGATE_OIDC_CLIENT_SECRET are set together; missing TOOLGATE_OIDC_CLIENT_ID, TOOLGATE_OIDC_CLIENT_SECRET.',
    );
    expect(run.stdout).toBe('');
  }, 60_000);

  it('a setting that does not parse: exit 1 with each problem named, and no stack trace', async () => {
    const run = await start({ PORT: 'abc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^toolgate: Invalid Toolgate configuration:\n {2}PORT: /);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  // A misspelt setting is not an error (a platform may set its own TOOLGATE_* names), but it is
  // said: TOOLGATE_TRUSTED_PROXY was read by nothing, and every client behind the proxy shared an address.
  it('a misspelt setting: a warning naming it and the setting it was meant to be, before anything else', async () => {
    const run = await start({ TOOLGATE_TRUSTED_PROXY: '10.0.0.0/8', DATABASE_URL: 'file:/proc/toolgate.db' });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      'toolgate: warning: TOOLGATE_TRUSTED_PROXY is not a Toolgate setting and is ignored (did you mean TOOLGATE_TRUSTED_PROXIES?)',
    );
  }, 60_000);

  it('a trusted proxy that is not an address or range: exit 1 naming the entry', async () => {
    const run = await start({ TOOLGATE_TRUSTED_PROXIES: '10.0.0.0/8, lb.internal' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('TOOLGATE_TRUSTED_PROXIES: "lb.internal" is not an IP address or CIDR range');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  // The database DATABASE_URL names cannot be reached or made: the cause in one line, never the
  // URL's password, and not the schema engine's stack trace ("External error id#0").
  it.each([
    [
      'a PostgreSQL port nothing listens on',
      'postgresql://postgres:s3cret-pw@127.0.0.1:1/toolgate',
      /cannot read the PostgreSQL database DATABASE_URL names: connect ECONNREFUSED 127\.0\.0\.1:1$/,
    ],
    [
      'a PostgreSQL database that does not exist',
      'postgresql://postgres:s3cret-pw@127.0.0.1:5432/toolgate_no_such_db',
      /cannot read the PostgreSQL database DATABASE_URL names: database "toolgate_no_such_db" does not exist$/,
    ],
    [
      'a SQLite file under a file, where no directory can be made',
      'file:/etc/hostname/toolgate.db',
      /^toolgate: cannot read the SQLite database DATABASE_URL names: EEXIST: file already exists, mkdir '\/etc\/hostname'$/,
    ],
    // The schema engine said only "External error id#0" and "disk I/O error" of these.
    [
      'a SQLite file where none can be made',
      'file:/proc/toolgate.db',
      /^toolgate: cannot read the SQLite database DATABASE_URL names: unable to open database file$/,
    ],
    [
      'a directory (file: names the working directory)',
      'file:/tmp',
      /^toolgate: cannot read the SQLite database DATABASE_URL names: \/tmp is a directory, not a database file$/,
    ],
  ])(
    '%s: exit 1 with the cause in one line',
    async (_, url, message) => {
      const run = await start({ DATABASE_URL: url });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr.trim()).toMatch(message);
      expect(run.stderr + run.stdout).not.toContain('s3cret-pw');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    },
    60_000,
  );

  it('a database a newer Toolgate migrated: exit 1 naming the migrations this build lacks, and nothing applied', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolgate-ahead-'));
    try {
      const file = path.join(dir, 'toolgate.db');
      const db = new Database(file);
      db.exec(
        'CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "finished_at" DATETIME, "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER NOT NULL DEFAULT 0)',
      );
      const insert = db.prepare(
        `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count") VALUES (?, 'x', current_timestamp, ?, 1)`,
      );
      // Every migration this build has, one it renamed long ago, and one from a later release.
      const committed = readMigrationList('sqlite').migrationDirectories.map((d) => d.path);
      committed.forEach((name, i) => insert.run(`m${i}`, name));
      insert.run('old', '20200101000000_renamed_before_it_landed');
      insert.run('new', '29991231000000_from_a_later_release');
      db.close();

      const run = await start({ DATABASE_URL: `file:${file}` });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        'toolgate: the SQLite database DATABASE_URL names was migrated by a newer Toolgate (migration 29991231000000_from_a_later_release not in this build); start that version or a newer one, or restore a backup taken before the upgrade',
      );
      // Refused before anything ran: no tables beyond the migrations table, no demo tenant.
      const after = new Database(file, { readonly: true });
      const tables = after.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
      after.close();
      expect(tables.map((t) => t.name)).toEqual(['_prisma_migrations']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
