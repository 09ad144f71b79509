// Bulk inserts for bench/dashboard/seed.ts's records: multi-row SQL straight into the tables, the
// way the evidence writer lays them out, so 1,000,000 rows load in a minute or two instead of hours.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../../lib/db/database-url';
import type { Row, SeedChunk } from './seed';

const EVIDENCE_COLUMNS: [string, PgType][] = [
  ['id', 'text'],
  ['seq', 'int4'],
  ['prevHash', 'bytea'],
  ['hash', 'bytea'],
  ['createdAt', 'timestamp'],
  ['kind', 'text'],
  ['requestId', 'text'],
  ['traceId', 'text'],
  ['callId', 'text'],
  ['apiKeyId', 'text'],
  ['actorUserId', 'text'],
  ['tool', 'text'],
  ['contractVersion', 'text'],
  ['contractHashKey', 'int4'],
  ['argsHash', 'bytea'],
  ['decision', 'text'],
  ['valid', 'bool'],
  ['errors', 'text'],
  ['warnings', 'text'],
  ['durationMs', 'float8'],
  ['policyId', 'text'],
  ['policyVersion', 'text'],
  ['policyRule', 'text'],
  ['policy', 'text'],
  ['shadowDiffers', 'bool'],
  ['executionMs', 'float8'],
  ['duplicateKey', 'text'],
  ['tenantKey', 'int4'],
];
const VIOLATION_COLUMNS: [string, PgType][] = [
  ['id', 'text'],
  ['tenantId', 'text'],
  ['evidenceId', 'text'],
  ['code', 'text'],
  ['type', 'text'],
  ['tool', 'text'],
  ['apiKeyId', 'text'],
  ['path', 'text'],
  ['decision', 'text'],
  ['createdAt', 'timestamp'],
];
const APPROVAL_COLUMNS: [string, PgType][] = [
  ['id', 'text'],
  ['tenantId', 'text'],
  ['tool', 'text'],
  ['contractVersion', 'text'],
  ['argsHash', 'text'],
  ['callId', 'text'],
  ['traceId', 'text'],
  ['apiKeyId', 'text'],
  ['approverRoles', 'text'],
  ['reason', 'text'],
  ['status', 'text'],
  ['createdAt', 'timestamp'],
  ['expiresAt', 'timestamp'],
  ['decidedAt', 'timestamp'],
  ['decidedBy', 'text'],
  ['sideEffectLevel', 'text'],
];
// bytea: a hash, given in hex and stored as bytes, as Evidence stores its hashes (lib/evidence/stored-hashes.ts).
type PgType = 'text' | 'int4' | 'timestamp' | 'bool' | 'float8' | 'bytea';
const hashBytes = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'hex') : null);

/** Bulk inserts into one scratch database. */
export interface BulkWriter {
  write(chunk: SeedChunk): Promise<void>;
  close(): Promise<void>;
}

export function bulkWriter(target: DatabaseTarget): BulkWriter {
  return target.provider === 'postgresql' ? postgresWriter(target.url) : sqliteWriter(target.file as string);
}

function sqliteWriter(file: string): BulkWriter {
  const connection = new Database(file);
  // A scratch copy: durability of each chunk does not matter while loading.
  connection.pragma('synchronous = OFF');
  const statement = (table: string, columns: [string, PgType][]) =>
    connection.prepare(
      `INSERT INTO "${table}" (${columns.map(([c]) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
  const inserts = {
    evidence: statement('Evidence', EVIDENCE_COLUMNS),
    violations: statement('Violation', VIOLATION_COLUMNS),
    approvals: statement('Approval', APPROVAL_COLUMNS),
  };
  const plain = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null));
  const value = (v: unknown, type: PgType) => (type === 'bytea' ? hashBytes(v) : plain(v));
  const write = connection.transaction((chunk: SeedChunk) => {
    for (const row of chunk.evidence) inserts.evidence.run(EVIDENCE_COLUMNS.map(([c, type]) => value(row[c], type)));
    for (const row of chunk.violations) inserts.violations.run(VIOLATION_COLUMNS.map(([c, type]) => value(row[c], type)));
    for (const row of chunk.approvals) inserts.approvals.run(APPROVAL_COLUMNS.map(([c, type]) => value(row[c], type)));
  });
  return {
    async write(chunk) {
      write(chunk);
    },
    async close() {
      connection.pragma('synchronous = FULL');
      connection.close();
    },
  };
}

function postgresWriter(url: string): BulkWriter {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  // One statement per table and chunk: each column travels as one array parameter and
  // unnest() turns the arrays back into rows, the closest thing to COPY that plain pg offers.
  const insert = async (table: string, columns: [string, PgType][], rows: Row[]) => {
    if (rows.length === 0) return;
    const params = columns.map(([c, type]) =>
      rows.map((r) => {
        const v = r[c] ?? null;
        return type === 'bytea' ? hashBytes(v) : v instanceof Date ? v.toISOString() : type === 'bool' ? Boolean(v) : v;
      }),
    );
    const unnest = columns.map(([, type], i) => `$${i + 1}::${type === 'timestamp' ? 'timestamp(3)' : type}[]`).join(', ');
    await client.query(`INSERT INTO "${table}" (${columns.map(([c]) => `"${c}"`).join(', ')}) SELECT * FROM unnest(${unnest})`, params);
  };
  return {
    async write(chunk) {
      await connected;
      await client.query('BEGIN');
      await insert('Evidence', EVIDENCE_COLUMNS, chunk.evidence);
      await insert('Violation', VIOLATION_COLUMNS, chunk.violations);
      await insert('Approval', APPROVAL_COLUMNS, chunk.approvals);
      await client.query('COMMIT');
    },
    async close() {
      await connected;
      await client.end();
    },
  };
}
