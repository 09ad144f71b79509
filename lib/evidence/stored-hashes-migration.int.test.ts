import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, dbProvider, disconnectDb } from '../db';
import { applyMigrations } from '../db/schema-engine';
import { migrateDatabase } from '../db/migrate-database';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { chainRecords, type EvidenceRecord } from './chain-records';
import { EVIDENCE_COLUMNS, quoted } from './evidence-columns';
import { GENESIS_HASH } from './evidence-hash';
import type { EvidenceInput } from './evidence-input';
import { hashHex } from './stored-hashes';
import { verifyEvidenceChain } from './verify-evidence-chain';
import { verifyEvidence } from './verification/verify-evidence';

// The last migration before Evidence's hashes became bytes.
const BEFORE = '20261127135502_evidence_without_created_at_index';
// Evidence's columns then: the tenant's key came later (20261129052152_evidence_tenant_key).
// The columns then: the tenant's id, no key, and the contract's hash itself.
const COLUMNS = [
  'tenantId',
  ...EVIDENCE_COLUMNS.filter((c) => c !== 'tenantKey').map((c) => (c === 'contractHashKey' ? 'contractHash' : c)),
];

const provider = dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite';
let scratch: ScratchDatabase;
const savedUrl = process.env.DATABASE_URL;

const input = (tenantId: string, i: number): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: `trace-${i}`,
  callId: `call-${i}`,
  apiKeyId: null,
  tool: 'orders.lookup',
  // One record without a contract (an unknown tool), the rest with one.
  contractVersion: i === 2 ? null : '1.0.0',
  contractHash: i === 2 ? null : 'c0ffee'.padEnd(64, '0'),
  argsHash: i.toString(16).padStart(64, 'a'),
  decision: i === 2 ? 'deny' : 'allow',
  valid: i !== 2,
  errors: [],
  warnings: [],
  durationMs: 0.5,
});

/** Old-format rows: every value as the writer stored it before, hashes as hex text. */
async function insertAsText(tenantId: string, rows: EvidenceRecord[]): Promise<void> {
  const head = rows.at(-1) as EvidenceRecord;
  if (provider === 'sqlite') {
    const connection = new Database(scratch.target.file as string);
    try {
      // As every start leaves the file (lib/db/migrate-database.ts).
      connection.pragma('journal_mode = WAL');
      connection.prepare(`INSERT INTO "Tenant" ("id", "slug", "name") VALUES (?, ?, ?)`).run(tenantId, tenantId, tenantId);
      const insert = connection.prepare(`INSERT INTO "Evidence" (${quoted(COLUMNS)}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
      for (const row of rows)
        insert.run(
          COLUMNS.map((c) => {
            const v = (row as unknown as Record<string, unknown>)[c] ?? null;
            return v instanceof Date ? v.toISOString().replace('Z', '+00:00') : typeof v === 'boolean' ? (v ? 1 : 0) : v;
          }),
        );
      connection
        .prepare(`INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash") VALUES (?, 0, ?, ?)`)
        .run(tenantId, head.seq, head.hash);
    } finally {
      connection.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: scratch.target.url });
  await client.connect();
  try {
    await client.query(`INSERT INTO "Tenant" ("id", "slug", "name") VALUES ($1, $1, $1)`, [tenantId]);
    for (const row of rows)
      await client.query(
        `INSERT INTO "Evidence" (${quoted(COLUMNS)}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
        COLUMNS.map((c) => (row as unknown as Record<string, unknown>)[c] ?? null),
      );
    await client.query(`INSERT INTO "EvidenceChainHead" ("tenantId", "lane", "seq", "hash") VALUES ($1, 0, $2, $3)`, [
      tenantId,
      head.seq,
      head.hash,
    ]);
  } finally {
    await client.end();
  }
}

/** A tenant's chain of `n` records as chainRecords makes them (the later ones store a prevHash prefix). */
function chainOf(tenantId: string, n: number): EvidenceRecord[] {
  const heads = new Map([[tenantId, { lane: 0, seq: 0, hash: GENESIS_HASH }]]);
  const rows: EvidenceRecord[] = [];
  // One record per batch: the batch's time is the record's.
  for (let i = 1; i <= n; i++) rows.push(...chainRecords([input(tenantId, i)], heads, new Date(Date.UTC(2026, 10, 1, 0, i))).rows);
  return rows;
}

const intact = chainOf('tenant-intact', 6);
const edited = chainOf('tenant-edited', 4);

beforeAll(async () => {
  scratch = await createScratchDatabase(provider, 'hash-bytes');
  await applyMigrations(scratch.target, BEFORE);
  // Records written before the change: whole prevHashes (the first) and prefixes (the rest).
  const whole = { ...(intact[0] as EvidenceRecord), prevHash: GENESIS_HASH };
  await insertAsText('tenant-intact', [whole, ...intact.slice(1)]);
  // Someone replaced a stored hash with text that is not hex.
  await insertAsText(
    'tenant-edited',
    edited.map((row) => (row.seq === 2 ? { ...row, hash: 'not-a-hash' } : row)),
  );
  // As npm start meets it: this process's client already has the database open (the cache
  // poller starts when its modules load), then start-up migrates.
  await disconnectDb();
  process.env.DATABASE_URL = scratch.target.url;
  expect(await db().changeCounter.count()).toBe(0);
  // The migration under test first, then any written after it.
  expect((await migrateDatabase(scratch.target.url)).applied[0]).toMatch(/_evidence_hash_bytes$/);
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  process.env.DATABASE_URL = savedUrl;
  await scratch.drop();
});

describe('the migration that stores evidence hashes as bytes', () => {
  it('turns each hex value into the bytes it spells: the same hashes, read back as the same hex', async () => {
    const rows = await db().evidence.findMany({
      where: { tenant: { tenantId: 'tenant-intact' } },
      orderBy: { seq: 'asc' },
      include: { contractHashEntry: true },
    });
    expect(rows.map((r) => [r.prevHash.length, r.hash.length, r.argsHash.length, r.contractHashEntry?.hash.length ?? null])).toEqual([
      [32, 32, 32, 32],
      [8, 32, 32, null],
      [8, 32, 32, 32],
      [8, 32, 32, 32],
      [8, 32, 32, 32],
      [8, 32, 32, 32],
    ]);
    expect(rows.map((r) => hashHex(r.hash))).toEqual(intact.map((r) => r.hash));
    expect(rows.map((r) => hashHex(r.argsHash))).toEqual(intact.map((r) => r.argsHash));
    expect(hashHex(rows[0]!.prevHash)).toBe(GENESIS_HASH);
    expect(rows.slice(1).map((r) => hashHex(r.prevHash))).toEqual(intact.slice(1).map((r) => r.prevHash));
  });

  it('leaves chains written before it verifying, fully and with checkpoints', async () => {
    expect(await verifyEvidenceChain({ tenantId: 'tenant-intact' })).toMatchObject({ valid: true, records: 6, firstBroken: null });
    expect(await verifyEvidence({ tenantId: 'tenant-intact' })).toMatchObject({ valid: true, firstBroken: null });
  });

  it('keeps a value that was not hex as its bytes, so the edited record is still found', async () => {
    const row = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: 'tenant-edited' }, seq: 2 } });
    expect(Buffer.from(row.hash).toString('utf8')).toBe('not-a-hash');
    expect(await verifyEvidenceChain({ tenantId: 'tenant-edited' })).toMatchObject({
      valid: false,
      firstBroken: { seq: 2, reason: 'hash_mismatch' },
    });
  });
});
