import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, diffDatabaseToSchema, diffSnapshotToSchema, schemaFile } from '@/lib/db/schema-engine';
import { createScratchDatabase, type ScratchDatabase } from '@/lib/db/scratch-database';
import { renderSchema } from '../scripts/prisma-schema.mjs';

/**
 * One model, two providers: these checks fail when prisma/models/*.prisma, the generated
 * per-provider schemas, their committed migrations, and the two migrated databases disagree.
 */
let sqlite: ScratchDatabase;
let postgres: ScratchDatabase;

beforeAll(async () => {
  sqlite = await createScratchDatabase('sqlite', 'drift');
  postgres = await createScratchDatabase('postgresql', 'drift');
  await applyMigrations(sqlite.target);
  await applyMigrations(postgres.target);
});

afterAll(async () => {
  await sqlite?.drop();
  await postgres?.drop();
});

interface Shape {
  columns: string[];
  indexes: string[];
}

async function sqliteShape(file: string): Promise<Shape> {
  const conn = new Database(file, { readonly: true });
  try {
    const tables = conn
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`)
      .all() as { name: string }[];
    const columns: string[] = [];
    for (const { name } of tables) {
      for (const col of conn.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; notnull: number; pk: number }[]) {
        columns.push(`${name}.${col.name} ${col.notnull || col.pk ? 'NOT NULL' : 'NULL'}`);
      }
    }
    const indexes = (
      conn.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]
    ).map((r) => r.name);
    return { columns: columns.sort(), indexes: indexes.sort() };
  } finally {
    conn.close();
  }
}

async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cols = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const idx = await client.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND tablename <> '_prisma_migrations'`,
    );
    return {
      columns: cols.rows.map((r) => `${r.table_name}.${r.column_name} ${r.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}`).sort(),
      indexes: idx.rows.map((r) => r.indexname).sort(),
    };
  } finally {
    await client.end();
  }
}

describe('schema drift', () => {
  it('generated provider schemas match prisma/models/*.prisma', () => {
    for (const provider of ['sqlite', 'postgresql'] as const) {
      expect(readFileSync(schemaFile(provider), 'utf8'), `${provider} schema is stale: run npm install (postinstall regenerates it)`).toBe(
        renderSchema(provider),
      );
    }
  });

  it('each provider has migrations for the current schema', async () => {
    expect(await diffSnapshotToSchema(sqlite.target), 'sqlite migrations lag the schema: npm run db:migration -- <name>').toBe('');
    expect(await diffSnapshotToSchema(postgres.target), 'postgresql migrations lag the schema: npm run db:migration -- <name>').toBe('');
  });

  it('the migrated SQLite database matches the schema exactly', async () => {
    expect(await diffDatabaseToSchema(sqlite.target)).toBe('');
  });

  it('SQLite and PostgreSQL end up with the same tables, columns, nullability and indexes', async () => {
    const a = await sqliteShape(sqlite.target.file as string);
    const b = await postgresShape(postgres.target.url);
    expect(b.columns).toEqual(a.columns);
    expect(b.indexes).toEqual(a.indexes);
    expect(a.columns.length).toBeGreaterThan(50);
  });

  it('applying the migrations again applies nothing', async () => {
    expect(await applyMigrations(sqlite.target)).toEqual([]);
    expect(await applyMigrations(postgres.target)).toEqual([]);
  });
});
