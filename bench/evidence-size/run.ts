// npm run bench:evidence-size: what a plain evidence record costs on disk. Starts the data plane
// on a scratch SQLite file and a scratch PostgreSQL database, sends the same allowed
// validate/pre calls to each (a call id of their own, as agents send), stops the server (which
// drains its evidence queue), then prints the bytes per record of the Evidence table and each of
// its indexes: SQLite's dbstat pages, PostgreSQL's relation sizes after VACUUM. Also the
// average stored length of the widest columns, to show where the bytes go.
// Options: --records <n> (default 100000) --only sqlite|postgresql --connections <n> (default 32)
//          --same-arguments
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createScratchDatabase } from '../../lib/db/scratch-database';
import type { DatabaseProvider, DatabaseTarget } from '../../lib/db/database-url';
import { stopChild } from '../child-process';
import { BENCH_API_KEY, setupBenchTenant, startDataPlane } from '../data-plane';

// Loading and vacuuming millions of rows takes minutes a statement: no statement bound here
// (lib/db/postgres-session.ts). Read when the first database client is made, after this line.
process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS = '0';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const RECORDS = Number(option('records') ?? 100_000);
const CONNECTIONS = Number(option('connections') ?? 32);
const only = option('only') as DatabaseProvider | undefined;
// The HTTP bench's call, orders.lookup, allowed, no argument retention; by default with
// arguments of its own too (the tenant id, which the contract's scope compares with the
// context's, so both carry the same id), as agents send: identical arguments would let
// PostgreSQL's B-trees deduplicate the argument hash's index entries. --same-arguments sends the
// HTTP bench's arguments every time.
const SAME_ARGUMENTS = args.includes('--same-arguments');
const tenant = SAME_ARGUMENTS ? 'acme' : 'acme-[<id>]';
const body = JSON.stringify({
  tool: 'orders.lookup',
  call_id: 'call-[<id>]',
  arguments: { tenant_id: tenant, order_id: 'ord_123456', include: ['items'] },
  context: { tenant_id: tenant, user_id: 'u_1' },
});
// The columns worth looking at: ids, hashes and the JSON ones.
const WIDE = [
  'id',
  'prevHash',
  'hash',
  'createdAt',
  'requestId',
  'traceId',
  'callId',
  'argsHash',
  'contractHashKey',
  'policy',
  'errors',
  'warnings',
];

interface Sizes {
  records: number;
  /** Of which allowed: the plain records the goal is about. */
  allowed: number;
  table: number;
  indexes: { name: string; bytes: number }[];
  columns: { name: string; avg: number }[];
  /** Everything the database holds on disk (SQLite file; PostgreSQL database), per record. */
  whole: number;
  /** SQLite: the table's leaf pages, how many rows each holds and a row's stored bytes (its cell without the page's pointer). */
  leaves?: { rowsPerPage: number; rowBytes: number };
}

async function fill(target: DatabaseTarget, port: number): Promise<void> {
  setupBenchTenant(target.url);
  const server = await startDataPlane({ databaseUrl: target.url, port });
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/api/v1/validate/pre`,
      method: 'POST',
      body,
      idReplacement: true,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_API_KEY}` },
      connections: CONNECTIONS,
      amount: RECORDS,
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  } finally {
    await stopChild(server);
  }
}

function sqliteSizes(file: string): Sizes {
  const connection = new Database(file);
  try {
    connection.pragma('wal_checkpoint(TRUNCATE)');
    const records = Number((connection.prepare(`SELECT count(*) AS n FROM "Evidence"`).get() as { n: number }).n);
    const allowed = Number(
      (connection.prepare(`SELECT count(*) AS n FROM "Evidence" WHERE "decision" = 'allow'`).get() as { n: number }).n,
    );
    const objects = connection
      .prepare(`SELECT name, type FROM sqlite_schema WHERE tbl_name = 'Evidence' AND type IN ('table', 'index')`)
      .all() as { name: string; type: string }[];
    const bytes = (name: string) =>
      Number((connection.prepare(`SELECT sum(pgsize) AS b FROM dbstat WHERE name = ?`).get(name) as { b: number }).b);
    const columns = WIDE.map((name) => ({
      name,
      avg: Number(
        (connection.prepare(`SELECT avg(length(CAST("${name}" AS BLOB))) AS a FROM "Evidence"`).get() as { a: number | null }).a ?? 0,
      ),
    }));
    // A row's size only counts in whole pages: what fits in one is what the table's size follows.
    const leaf = connection
      .prepare(
        `SELECT avg(ncell) AS rows, sum(payload) * 1.0 / sum(ncell) AS payload FROM dbstat WHERE name = 'Evidence' AND pagetype = 'leaf'`,
      )
      .get() as { rows: number; payload: number };
    const pageCount = Number(connection.pragma('page_count', { simple: true }));
    const pageSize = Number(connection.pragma('page_size', { simple: true }));
    return {
      records,
      allowed,
      table: bytes('Evidence'),
      indexes: objects.filter((o) => o.type === 'index').map((o) => ({ name: o.name, bytes: bytes(o.name) })),
      columns,
      whole: pageCount * pageSize,
      leaves: { rowsPerPage: leaf.rows, rowBytes: leaf.payload },
    };
  } finally {
    connection.close();
  }
}

async function postgresSizes(url: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE "Evidence"');
    const one = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows[0] as Record<string, unknown>;
    const records = Number((await one(`SELECT count(*) AS n FROM "Evidence"`)).n);
    const allowed = Number((await one(`SELECT count(*) AS n FROM "Evidence" WHERE "decision" = 'allow'`)).n);
    // The heap with its TOAST table and visibility/free-space maps, without the indexes.
    const table = Number((await one(`SELECT pg_table_size('"Evidence"') AS b`)).b);
    const indexes = (
      await client.query<{ name: string; bytes: string }>(
        `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes FROM pg_index WHERE indrelid = '"Evidence"'::regclass ORDER BY 1`,
      )
    ).rows.map((r) => ({ name: r.name.replace(/"/g, ''), bytes: Number(r.bytes) }));
    const columns: { name: string; avg: number }[] = [];
    for (const name of WIDE)
      columns.push({ name, avg: Number((await one(`SELECT avg(pg_column_size("${name}")) AS a FROM "Evidence"`)).a ?? 0) });
    const whole = Number((await one(`SELECT pg_database_size(current_database()) AS b`)).b);
    return { records, allowed, table, indexes, columns, whole };
  } finally {
    await client.end();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function print(provider: DatabaseProvider, sizes: Sizes): void {
  const per = (bytes: number) => bytes / sizes.records;
  const indexBytes = sizes.indexes.reduce((sum, i) => sum + i.bytes, 0);
  console.log(`\n${provider}: ${fmt(sizes.records)} records, ${fmt(sizes.allowed)} of them allowed`);
  console.log(`  Evidence, table and its indexes: ${per(sizes.table + indexBytes).toFixed(0)} bytes per record`);
  console.log(`    table:                         ${per(sizes.table).toFixed(0)}`);
  for (const index of [...sizes.indexes].sort((a, b) => b.bytes - a.bytes))
    console.log(`    ${index.name.padEnd(30)} ${per(index.bytes).toFixed(0)}`);
  if (sizes.leaves)
    console.log(
      `  table leaf pages: ${sizes.leaves.rowsPerPage.toFixed(2)} rows each, ${sizes.leaves.rowBytes.toFixed(0)} bytes of columns per row`,
    );
  console.log(
    `  whole database on disk:          ${per(sizes.whole).toFixed(0)} bytes per record (all tables; ${fmt(sizes.whole / 1e6)} MB)`,
  );
  console.log(`  average stored bytes of a column: ${sizes.columns.map((c) => `${c.name} ${c.avg.toFixed(0)}`).join(', ')}`);
}

console.log(
  `Evidence size: ${fmt(RECORDS)} allowed validate/pre calls per database, ${CONNECTIONS} connections, a call id each, ${SAME_ARGUMENTS ? 'the same arguments' : 'arguments of their own'}`,
);
const providers: DatabaseProvider[] = only ? [only] : ['sqlite', 'postgresql'];
for (const [i, provider] of providers.entries()) {
  const scratch = await createScratchDatabase(provider, 'evidence_size');
  try {
    await fill(scratch.target, 3470 + i);
    print(provider, provider === 'sqlite' ? sqliteSizes(scratch.target.file as string) : await postgresSizes(scratch.target.url));
  } finally {
    await scratch.drop();
  }
}
