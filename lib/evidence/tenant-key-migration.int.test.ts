import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, dbProvider, disconnectDb } from '../db';
import { applyMigrations } from '../db/schema-engine';
import { migrateDatabase } from '../db/migrate-database';
import { createScratchDatabase, type ScratchDatabase } from '../db/scratch-database';
import { chainRecords, type EvidenceRecord } from './chain-records';
import { EVIDENCE_COLUMNS, quoted } from './evidence-columns';
import { GENESIS_HASH } from './evidence-hash';
import type { EvidenceInput } from './evidence-input';
import { storedHash, toStoredEvidence } from './stored-hashes';
import { verifyEvidenceChain } from './verify-evidence-chain';
import { createRawEvidenceStore } from './raw-evidence-store';
import { recordEvidence, closeEvidenceWriter } from './record-evidence';
import { listTraces } from '../traces/list-traces';
import { getTraceOrThrow } from '../traces/get-trace-or-throw';
import { sql } from '../db/sql';

// The last migration before the tenant's key (20261129052152_evidence_tenant_key).
const BEFORE = '20261129015148_evidence_trace_seq_index';
// Before the key, and before the tenant's id and the contract's hash left the row.
const OLD_COLUMNS = [
  'tenantId',
  ...EVIDENCE_COLUMNS.filter((c) => c !== 'tenantKey').map((c) => (c === 'contractHashKey' ? 'contractHash' : c)),
];

const provider = dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite';
let scratch: ScratchDatabase;
const savedUrl = process.env.DATABASE_URL;

// Both tenants' agents send the same call ids and trace ids: only the tenant tells their records
// apart.
const TRACE = 'ab'.repeat(16);
const input = (tenantId: string, i: number, tool = 'orders.lookup'): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: i <= 2 ? TRACE : `${i.toString(16).padStart(2, '0')}`.repeat(16),
  callId: `call-${i}`,
  apiKeyId: null,
  tool,
  contractVersion: '1.0.0',
  contractHash: 'c0ffee'.padEnd(64, '0'),
  argsHash: i.toString(16).padStart(64, 'a'),
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 0.5,
});

function chainOf(tenantId: string, n: number): EvidenceRecord[] {
  const heads = new Map([[tenantId, { lane: 0, seq: 0, hash: GENESIS_HASH }]]);
  const rows: EvidenceRecord[] = [];
  for (let i = 1; i <= n; i++) rows.push(...chainRecords([input(tenantId, i)], heads, new Date(Date.UTC(2026, 10, 28, 0, i))).rows);
  return rows;
}

/** Rows as the writers stored them before the key: its columns only, through raw SQL. */
async function insertOld(tenantId: string, rows: EvidenceRecord[]): Promise<void> {
  await db().$executeRaw(sql`INSERT INTO "Tenant" ("id", "slug", "name") VALUES (${tenantId}, ${tenantId}, ${tenantId})`);
  for (const row of rows) {
    const stored = { ...toStoredEvidence(row), contractHash: row.contractHash && storedHash(row.contractHash) } as unknown as Record<
      string,
      unknown
    >;
    const values = OLD_COLUMNS.map((c) => {
      const v = stored[c] ?? null;
      if (provider === 'sqlite' && v instanceof Date) return v.toISOString().replace('Z', '+00:00');
      if (provider === 'sqlite' && typeof v === 'boolean') return v ? 1 : 0;
      return v;
    });
    const marks = OLD_COLUMNS.map((_, i) => (provider === 'sqlite' ? '?' : `$${i + 1}`)).join(', ');
    await db().$executeRawUnsafe(`INSERT INTO "Evidence" (${quoted(OLD_COLUMNS)}) VALUES (${marks})`, ...values);
  }
  const head = rows.at(-1) as EvidenceRecord;
  await db().evidenceChainHead.create({ data: { tenantId, lane: 0, seq: head.seq, hash: head.hash } });
}

const keyOf = async (tenantId: string) => (await db().tenantKey.findUniqueOrThrow({ where: { tenantId } })).key;

beforeAll(async () => {
  scratch = await createScratchDatabase(provider, 'tenant_key');
  await applyMigrations(scratch.target, BEFORE);
  await disconnectDb();
  process.env.DATABASE_URL = scratch.target.url;
  await insertOld('tenant-a', chainOf('tenant-a', 4));
  await insertOld('tenant-b', chainOf('tenant-b', 3));
  await db().$executeRaw(sql`INSERT INTO "Tenant" ("id", "slug", "name") VALUES ('tenant-quiet', 'tenant-quiet', 'No evidence')`);
  await disconnectDb();
  // The migration under test first, then any written after it.
  expect((await migrateDatabase(scratch.target.url)).applied[0]).toMatch(/_evidence_tenant_key$/);
}, 120_000);

afterAll(async () => {
  await closeEvidenceWriter();
  await disconnectDb();
  process.env.DATABASE_URL = savedUrl;
  await scratch.drop();
});

describe('the migration that gives each tenant a key for the evidence indexes', () => {
  it('gives every tenant its own key and every record its tenant’s', async () => {
    const keys = await Promise.all(['tenant-a', 'tenant-b', 'tenant-quiet'].map(keyOf));
    expect(new Set(keys).size).toBe(3);
    for (const [tenantId, key] of [
      ['tenant-a', keys[0]],
      ['tenant-b', keys[1]],
    ] as const) {
      const records = await db().evidence.findMany({ where: { tenant: { tenantId } }, select: { tenantKey: true } });
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r) => r.tenantKey === key)).toBe(true);
    }
    expect(await db().evidence.count({ where: { tenantKey: 0 } })).toBe(0);
  });

  it('keeps each contract hash once, every record naming it by key (20261129115251_evidence_compact_row)', async () => {
    const hashes = await db().evidenceContractHash.findMany();
    expect(hashes.map((h) => Buffer.from(h.hash).toString('hex'))).toEqual(['c0ffee'.padEnd(64, '0')]);
    const keys = await db().evidence.findMany({ select: { contractHashKey: true } });
    expect(keys).toHaveLength(7);
    expect(new Set(keys.map((k) => k.contractHashKey))).toEqual(new Set([hashes[0]?.key]));
  });

  it('leaves the chains verifying: the key is not hashed', async () => {
    expect(await verifyEvidenceChain({ tenantId: 'tenant-a' })).toMatchObject({ valid: true, records: 4, firstBroken: null });
    expect(await verifyEvidenceChain({ tenantId: 'tenant-b' })).toMatchObject({ valid: true, records: 3, firstBroken: null });
  });

  it('finds each tenant’s traces by tool, by call id and by trace id, and only its own', async () => {
    const byTool = await listTraces({ tenantId: 'tenant-a', filters: { tool: 'orders.lookup' }, limit: 50 });
    expect(byTool.traces.map((t) => t.call_id).sort()).toEqual(['call-1', 'call-3', 'call-4']);
    const byCall = await listTraces({ tenantId: 'tenant-b', filters: { search: 'call-' }, limit: 50 });
    expect(byCall.traces.map((t) => t.call_id).sort()).toEqual(['call-1', 'call-3']);
    const trace = await getTraceOrThrow({ tenantId: 'tenant-b', traceId: TRACE });
    expect(trace.records.map((r) => r.request_id)).toEqual(['req-1', 'req-2']);
    await expect(getTraceOrThrow({ tenantId: 'tenant-quiet', traceId: TRACE })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reports a record moved to another tenant’s key as broken in both chains', async () => {
    // The key is the only tenant a row names: a record edited to tenant-b's key reads as tenant-b's...
    const moved = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: 'tenant-a' }, seq: 4 } });
    await db().evidence.update({ where: { id: moved.id }, data: { tenantKey: await keyOf('tenant-b') } });
    const search = await listTraces({ tenantId: 'tenant-b', filters: { search: 'call-4' }, limit: 50 });
    expect(search.traces.map((t) => t.call_id)).toEqual(['call-4']);
    // ...but its hash covers tenant-a's id, and it is missing from tenant-a's chain: neither verifies.
    expect(await verifyEvidenceChain({ tenantId: 'tenant-a' })).toMatchObject({ valid: false, firstBroken: { seq: 4 } });
    expect(await verifyEvidenceChain({ tenantId: 'tenant-b' })).toMatchObject({ valid: false, firstBroken: { seq: 4 } });
    await db().evidence.update({ where: { id: moved.id }, data: { tenantKey: await keyOf('tenant-a') } });
    expect(await verifyEvidenceChain({ tenantId: 'tenant-b' })).toMatchObject({ valid: true, records: 3 });
  });

  it('gives a tenant made later its key with its first evidence, through either writer', async () => {
    for (const tenantId of ['tenant-new-1', 'tenant-new-2'])
      await db().tenant.create({ data: { id: tenantId, slug: tenantId, name: tenantId } });
    // The data plane's store (statements on this thread here)...
    const store = createRawEvidenceStore(scratch.target);
    try {
      await store.commit([input('tenant-new-1', 1, 'mail.send')]);
    } finally {
      await store.close();
    }
    // ...and the writer route handlers use.
    await recordEvidence(input('tenant-new-2', 1, 'mail.send'));
    const keys = await Promise.all(['tenant-a', 'tenant-b', 'tenant-quiet', 'tenant-new-1', 'tenant-new-2'].map(keyOf));
    expect(new Set(keys).size).toBe(5);
    for (const tenantId of ['tenant-new-1', 'tenant-new-2']) {
      const [record] = await db().evidence.findMany({ where: { tenant: { tenantId } } });
      expect(record?.tenantKey).toBe(await keyOf(tenantId));
      const page = await listTraces({ tenantId, filters: { tool: 'mail.send' }, limit: 50 });
      expect(page.traces.map((t) => t.call_id)).toEqual(['call-1']);
    }
  });
});
