import { readFileSync, readdirSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, MigrationList } from '@prisma/schema-engine-wasm';
import { createAdapterFactory } from './adapter';
import type { DatabaseTarget, DatabaseProvider } from './database-url';

/**
 * Prisma's schema engine as WebAssembly: the native binary cannot be downloaded on our
 * machines, and the wasm build does the same work through the driver adapter. The package's
 * ESM entry imports the .wasm file directly, which Node refuses, so it is instantiated by hand.
 */
const require = createRequire(import.meta.url);
let wasmReady: Promise<typeof import('@prisma/schema-engine-wasm/schema_engine_bg')> | undefined;

function loadWasm() {
  wasmReady ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmFile = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(readFileSync(wasmFile), {
      './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return bg;
  })();
  return wasmReady;
}

/**
 * The nearest directory above this module with a package.json: the checkout, whether this
 * module runs from source (tsx, vitest) or inside the server bundle (.toolgate/server/<hash>/).
 */
export function projectRoot(): string {
  const start = path.dirname(new URL(import.meta.url).pathname);
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(start, '..', '..');
  }
}

export function migrationsDir(provider: DatabaseProvider): string {
  return path.join(projectRoot(), 'prisma', provider, 'migrations');
}

export function schemaFile(provider: DatabaseProvider): string {
  return path.join(projectRoot(), 'prisma', provider, 'schema.prisma');
}

/** The committed migrations, in order; `through` stops at that one (a migration's test starts from the schema before it). */
export function readMigrationList(provider: DatabaseProvider, through?: string): MigrationList {
  const baseDir = migrationsDir(provider);
  const dirs = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && (through === undefined || d.name <= through))
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((dir) => {
      const file = path.join(baseDir, dir, 'migration.sql');
      return {
        path: dir,
        migrationFile: {
          path: 'migration.sql',
          content: existsSync(file)
            ? { tag: 'ok' as const, value: readFileSync(file, 'utf8') }
            : { tag: 'error' as const, value: 'migration.sql is missing' },
        },
      };
    }),
  };
}

async function withEngine<T>(target: DatabaseTarget, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  if (target.file) mkdirSync(path.dirname(target.file), { recursive: true });
  const bg = await loadWasm();
  const datamodel = readFileSync(schemaFile(target.provider), 'utf8');
  // The engine never closes its connections; on SQLite it holds an EXCLUSIVE lock, so every
  // connection it opens is tracked here and disposed when the engine is done.
  const base = createAdapterFactory(target);
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked = Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => track(await base.connect()),
    connectToShadowDb: async () => track(await base.connectToShadowDb()),
  }) as typeof base;
  function track<A extends { dispose(): Promise<void> }>(adapter: A): A {
    opened.push(adapter);
    return target.provider === 'sqlite' ? singleQuoteIndexNames(adapter) : adapter;
  }
  const factory = bindMigrationAwareSqlAdapterFactory(tracked);
  const logs: string[] = [];
  const engine = (await bg.SchemaEngine.new(
    { datamodels: [[schemaFile(target.provider), datamodel]] },
    (line: string) => logs.push(line),
    factory,
  )) as SchemaEngine;
  try {
    return await fn(engine);
  } catch (error) {
    throw new Error(`schema engine failed: ${describe(error)}${logs.length ? `\n${logs.slice(-5).join('\n')}` : ''}`);
  } finally {
    engine.free();
    await Promise.allSettled(opened.map((adapter) => adapter.dispose()));
  }
}

/**
 * The engine reads a partial index's WHERE clause with `... AND name = "<index>"`, a double-quoted
 * string literal, which better-sqlite3's SQLite (built with SQLITE_DQS=0) takes for a column name
 * and refuses ("column not found"). That one statement is rewritten with a single-quoted literal.
 */
const PARTIAL_INDEX_SQL = /^(SELECT sql FROM sqlite_master WHERE type = 'index' AND name = )"((?:[^"]|"")*)";?$/;

function singleQuoteIndexNames<A>(adapter: A): A {
  const raw = adapter as { queryRaw?: (query: { sql: string }) => Promise<unknown> };
  const queryRaw = raw.queryRaw?.bind(adapter);
  if (!queryRaw) return adapter;
  raw.queryRaw = (query) => {
    const match = PARTIAL_INDEX_SQL.exec(query.sql);
    if (!match) return queryRaw(query);
    const name = (match[2] ?? '').replaceAll('""', '"').replaceAll("'", "''");
    return queryRaw({ ...query, sql: `${match[1]}'${name}'` });
  };
  return adapter;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

const emptyFilter = { externalTables: [], externalEnums: [] };

/** Applies every committed migration not yet applied (up to `through` when given); returns the names it applied. */
export async function applyMigrations(target: DatabaseTarget, through?: string): Promise<string[]> {
  return withEngine(target, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: readMigrationList(target.provider, through), filters: emptyFilter });
    return out.appliedMigrationNames;
  });
}

/**
 * The SQL that would take the database at `target` to the provider's schema.prisma.
 * Empty when the database (migrated from the committed migrations) matches the schema.
 */
export async function diffDatabaseToSchema(target: DatabaseTarget): Promise<string> {
  return withEngine(target, async (engine) => {
    const datamodel = readFileSync(schemaFile(target.provider), 'utf8');
    const out = await engine.diff({
      from: { tag: 'schemaDatasource', files: [{ path: schemaFile(target.provider), content: datamodel }], configDir: projectRoot() },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaFile(target.provider), content: datamodel }] },
      script: true,
      exitCode: null,
      filters: emptyFilter,
    });
    return scriptBody(out.stdout ?? '');
  });
}

export function snapshotFile(provider: DatabaseProvider): string {
  return path.join(migrationsDir(provider), 'schema-snapshot.prisma');
}

/**
 * SQL that takes a database migrated up to the snapshot (the schema the latest migration was
 * written for) to the current schema.prisma. Schema-to-schema: no database is introspected,
 * because the pg adapter cannot read the catalog columns the engine's introspection uses.
 */
export async function diffSnapshotToSchema(target: DatabaseTarget): Promise<string> {
  return withEngine(target, async (engine) => {
    const datamodel = readFileSync(schemaFile(target.provider), 'utf8');
    const snapshot = snapshotFile(target.provider);
    const out = await engine.diff({
      from: existsSync(snapshot)
        ? { tag: 'schemaDatamodel', files: [{ path: snapshot, content: readFileSync(snapshot, 'utf8') }] }
        : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaFile(target.provider), content: datamodel }] },
      script: true,
      exitCode: null,
      filters: emptyFilter,
    });
    return scriptBody(out.stdout ?? '');
  });
}

/** The engine prints a comment for an empty diff; strip comments and blank lines. */
function scriptBody(sql: string): string {
  return sql
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('--'))
    .join('\n');
}
