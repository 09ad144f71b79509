// The SQLite migration that turns stored ISO-8601 timestamps into integers (milliseconds since
// the epoch; lib/db/adapter.ts): rows written as the earlier code wrote them, text in every
// DATETIME column, read back after it as the same instants, evidence chains still verifying, the
// rollups computed again, and time filters finding what they found before.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '../lib/db';
import { applyMigrations } from '../lib/db/schema-engine';
import { migrateDatabase } from '../lib/db/migrate-database';
import { createScratchDatabase, type ScratchDatabase } from '../lib/db/scratch-database';
import { chainRecords, type EvidenceRecord, type ViolationRecord } from '../lib/evidence/chain-records';
import { EVIDENCE_COLUMNS, VIOLATION_COLUMNS, quoted } from '../lib/evidence/evidence-columns';
import { GENESIS_HASH } from '../lib/evidence/evidence-hash';
import type { EvidenceInput } from '../lib/evidence/evidence-input';
import { storedHash, toStoredEvidence } from '../lib/evidence/stored-hashes';
import { verifyEvidenceChain } from '../lib/evidence/verify-evidence-chain';
import { listViolations } from '../lib/violations/list-violations';
import { listTraces } from '../lib/traces/list-traces';

const BEFORE = '20261129082855_evidence_tenant_key_seq';
const TENANT = 'tenant-times';
// As Prisma's SQLite adapter wrote a DateTime until now.
const text = (d: Date) => d.toISOString().replace('Z', '+00:00');
const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 3, minute, 7, 123));

let scratch: ScratchDatabase;
const savedUrl = process.env.DATABASE_URL;
let defaultStamp = '';
const rows: EvidenceRecord[] = [];

const input = (i: number): EvidenceInput => ({
  tenantId: TENANT,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: i.toString(16).padStart(32, '0'),
  callId: `call-${i}`,
  apiKeyId: null,
  tool: 'orders.lookup',
  contractVersion: '1.0.0',
  contractHash: 'c0ffee'.padEnd(64, '0'),
  argsHash: i.toString(16).padStart(64, 'a'),
  decision: i % 2 === 0 ? 'deny' : 'allow',
  valid: i % 2 !== 0,
  errors: i % 2 === 0 ? [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'no', path: '$.q' }] : [],
  warnings: [],
  durationMs: 0.5,
});

/** The old database's rows, written with text timestamps through plain SQL (no Prisma, no adapter). */
function writeOld(file: string): void {
  const connection = new Database(file);
  try {
    connection
      .prepare(`INSERT INTO "Tenant" ("id", "slug", "name", "createdAt") VALUES (?, ?, ?, ?)`)
      .run(TENANT, TENANT, TENANT, text(at(0)));
    // A row whose timestamp came from the column's DEFAULT CURRENT_TIMESTAMP ('YYYY-MM-DD HH:MM:SS').
    connection.prepare(`INSERT INTO "Tenant" ("id", "slug", "name") VALUES ('tenant-default', 'tenant-default', 'd')`).run();
    defaultStamp = String(
      (connection.prepare(`SELECT "createdAt" AS c FROM "Tenant" WHERE "id" = 'tenant-default'`).get() as { c: string }).c,
    );
    connection.prepare(`INSERT INTO "TenantKey" ("tenantId") VALUES (?)`).run(TENANT);
    const tenantKey = Number((connection.prepare(`SELECT "key" FROM "TenantKey" WHERE "tenantId" = ?`).get(TENANT) as { key: number }).key);
    // Nullable timestamps: one set, the others null.
    connection
      .prepare(
        `INSERT INTO "ApiKey" ("id", "tenantId", "name", "prefix", "hash", "scopes", "createdAt", "revokedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run('key-1', TENANT, 'k', 'tg_x', 'h'.repeat(64), '["validate"]', text(at(1)), text(at(2)));

    const heads = new Map([[TENANT, { lane: 0, seq: 0, hash: GENESIS_HASH, tenantKey }]]);
    const violations: ViolationRecord[] = [];
    for (let i = 1; i <= 6; i++) {
      const made = chainRecords([input(i)], heads, at(10 * i));
      rows.push(...made.rows);
      violations.push(...made.violations);
    }
    // The row then still held the tenant's id and the contract's hash.
    const columns = ['tenantId', ...EVIDENCE_COLUMNS.map((c) => (c === 'contractHashKey' ? 'contractHash' : c))];
    const evidence = connection.prepare(`INSERT INTO "Evidence" (${quoted(columns)}) VALUES (${columns.map(() => '?').join(', ')})`);
    for (const row of rows) {
      const stored = { ...toStoredEvidence(row), contractHash: row.contractHash && storedHash(row.contractHash) } as unknown as Record<
        string,
        unknown
      >;
      evidence.run(...columns.map((c) => old(stored[c])));
    }
    const violation = connection.prepare(
      `INSERT INTO "Violation" (${quoted(VIOLATION_COLUMNS)}) VALUES (${VIOLATION_COLUMNS.map(() => '?').join(', ')})`,
    );
    for (const v of violations) violation.run(...VIOLATION_COLUMNS.map((c) => old((v as unknown as Record<string, unknown>)[c])));
    const head = rows.at(-1) as EvidenceRecord;
    connection
      .prepare(`INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash") VALUES (?, 0, ?, ?)`)
      .run(TENANT, head.seq, head.hash);
    // A rollup row as the old writer kept it, in text: the migration computes the rollups again.
    connection
      .prepare(
        `INSERT INTO "EvidenceRollup" ("tenantId", "hour", "kind", "decision", "records", "shadowDiffers", "policyRefusals") VALUES (?, ?, 'pre', 'allow', 99, 0, 0)`,
      )
      .run(TENANT, '2026-11-28T03:00:00.000+00:00');
  } finally {
    connection.close();
  }
}

function old(value: unknown): unknown {
  if (value instanceof Date) return text(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.from(value);
  return value ?? null;
}

beforeAll(async () => {
  scratch = await createScratchDatabase('sqlite', 'integer_timestamps');
  await applyMigrations(scratch.target, BEFORE);
  writeOld(scratch.target.file as string);
  expect((await migrateDatabase(scratch.target.url)).applied[0]).toMatch(/_sqlite_integer_timestamps$/);
  await disconnectDb();
  process.env.DATABASE_URL = scratch.target.url;
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  process.env.DATABASE_URL = savedUrl;
  await scratch.drop();
});

describe('the SQLite migration to integer timestamps', () => {
  it('stores every timestamp as the same instant in milliseconds, nulls as nulls', () => {
    const connection = new Database(scratch.target.file as string, { readonly: true });
    try {
      const one = (statement: string, ...params: unknown[]) => connection.prepare(statement).get(...params) as Record<string, unknown>;
      expect(one(`SELECT "createdAt" AS c FROM "Tenant" WHERE "id" = ?`, TENANT).c).toBe(at(0).getTime());
      expect(one(`SELECT "createdAt" AS c FROM "Tenant" WHERE "id" = 'tenant-default'`).c).toBe(
        Date.parse(`${defaultStamp.replace(' ', 'T')}Z`),
      );
      expect(one(`SELECT "createdAt" AS c, "revokedAt" AS r, "lastUsedAt" AS l FROM "ApiKey"`)).toEqual({
        c: at(1).getTime(),
        r: at(2).getTime(),
        l: null,
      });
      const stamps = connection.prepare(`SELECT "seq", "createdAt" AS c FROM "Evidence" ORDER BY "seq"`).all() as {
        seq: number;
        c: unknown;
      }[];
      expect(stamps.map((s) => s.c)).toEqual(rows.map((r) => r.createdAt.getTime()));
      for (const table of ['Tenant', 'ApiKey', 'Evidence', 'Violation', 'EvidenceRollup', 'ViolationRollup'])
        expect(
          one(
            `SELECT count(*) AS n FROM "${table}" WHERE typeof(${table.endsWith('Rollup') ? (table === 'EvidenceRollup' ? '"hour"' : '"bucket"') : '"createdAt"'}) = 'text'`,
          ).n,
        ).toBe(0);
    } finally {
      connection.close();
    }
  });

  it('reads back the same dates through Prisma, and the chain verifies: its hash covers the same ISO text', async () => {
    expect((await db().tenant.findUniqueOrThrow({ where: { id: TENANT } })).createdAt).toEqual(at(0));
    const evidence = await db().evidence.findMany({ where: { tenant: { tenantId: TENANT } }, orderBy: { seq: 'asc' } });
    expect(evidence.map((e) => e.createdAt)).toEqual(rows.map((r) => r.createdAt));
    expect(await verifyEvidenceChain({ tenantId: TENANT })).toMatchObject({ valid: true, records: 6, firstBroken: null });
  });

  it('computes the rollups again, by integer hours', async () => {
    const rollups = await db().evidenceRollup.findMany({ where: { tenantId: TENANT }, orderBy: [{ hour: 'asc' }, { decision: 'asc' }] });
    // Records at 03:10..03:50 and 04:00: allowed 1, 3, 5 and denied 2, 4 in hour 03, denied 6 in hour 04.
    expect(rollups.map((r) => [r.hour.toISOString(), r.decision, r.records])).toEqual([
      ['2026-11-28T03:00:00.000Z', 'allow', 3],
      ['2026-11-28T03:00:00.000Z', 'deny', 2],
      ['2026-11-28T04:00:00.000Z', 'deny', 1],
    ]);
  });

  it('filters by time as before: violations since a moment, traces in a window', async () => {
    const since = await listViolations({ tenantId: TENANT, filters: { since: at(35) }, limit: 50 });
    expect(since.violations.map((v) => v.created_at)).toEqual([at(60).toISOString(), at(40).toISOString()]);
    const window = await listTraces({ tenantId: TENANT, filters: { since: at(20), until: at(41) }, limit: 50 });
    expect(window.traces.map((t) => t.call_id)).toEqual(['call-4', 'call-3', 'call-2']);
  });
});
