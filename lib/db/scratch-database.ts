import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseProvider, DatabaseTarget } from './database-url';

/** PostgreSQL server used for scratch databases (tests, migration authoring). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

/**
 * A new, empty database that belongs to the caller alone: an SQLite file in a temp folder, or a
 * freshly created PostgreSQL database on the local server. Never reuses an existing database.
 */
export async function createScratchDatabase(provider: DatabaseProvider, label = 'scratch'): Promise<ScratchDatabase> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), `toolgate-${label}-`));
    const file = path.join(dir, 'toolgate.db');
    return {
      target: { provider, url: `file:${file}`, file },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `toolgate_${label.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    target: { provider, url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
