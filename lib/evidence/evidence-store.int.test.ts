// The data plane's evidence store (SQLite: the writer thread; PostgreSQL: the pooled store)
// and the durability setting of every connection that commits decisions.
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { db, dbProvider } from '../db';
import { parseDatabaseUrl } from '../db/database-url';
import { createTestTenant } from '../testing/fixtures';
import { EvidenceWriter } from './evidence-writer';
import { threadedEvidenceStore } from './evidence-writer-thread';
import { verifyEvidenceChain } from './verify-evidence-chain';
import type { EvidenceInput } from './record-evidence';

const provider = dbProvider();
const input = (tenantId: string, apiKeyId: string, i: number, errors: EvidenceInput['errors'] = []): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: `trace-${i % 7}`,
  callId: `call-${i}`,
  apiKeyId,
  tool: 'orders.lookup',
  contractVersion: '1.0.0',
  contractHash: 'c'.repeat(64),
  argsHash: String(i % 5).repeat(64),
  decision: errors.length ? 'deny' : 'allow',
  valid: errors.length === 0,
  errors,
  warnings: [],
  durationMs: i / 7,
});

describe(`evidence store of the data plane (${provider})`, () => {
  const writer = new EvidenceWriter({ maxQueue: 10_000, maxBatch: 50, storeFactory: threadedEvidenceStore });
  afterAll(() => writer.close());

  it('commits concurrent records from two tenants into two intact chains, each answer after its commit', async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const issue = {
      code: 'AXAG_INPUT_INVALID',
      type: 'validation',
      message: 'bad',
      path: '$.x',
      intent: 'orders.lookup',
    } as unknown as EvidenceInput['errors'][number];
    // Three waves, written without waiting: the store takes new batches while others commit.
    const waves = [0, 1, 2].map((wave) =>
      Array.from({ length: 60 }, (_, i) => {
        const n = wave * 60 + i;
        const t = n % 2 ? a : b;
        return writer.write(input(t.tenant.id, t.agentKeyId, n, n % 10 === 0 ? [issue] : []));
      }),
    );
    const recorded = await Promise.all(waves.flat());
    for (const r of recorded) {
      // Answered means committed: the row is there when the promise resolves.
      expect(r.id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    }
    const rows = await db().evidence.findMany({
      where: { id: { in: recorded.map((r) => r.id) } },
      select: { id: true, seq: true, tenant: { select: { tenantId: true } } },
    });
    expect(rows).toHaveLength(180);
    for (const t of [a, b]) {
      const check = await verifyEvidenceChain({ tenantId: t.tenant.id });
      expect(check).toMatchObject({ valid: true, records: 90, firstBroken: null });
    }
    expect(await db().violation.count({ where: { tenantId: { in: [a.tenant.id, b.tenant.id] } } })).toBe(18);
  });

  it('answers every waiting caller with an error, not a decision, when the store cannot commit', async () => {
    const t = await createTestTenant();
    const broken = new EvidenceWriter({ maxQueue: 100, maxBatch: 50, storeFactory: threadedEvidenceStore });
    try {
      // A tenant that does not exist violates the foreign key: the whole batch fails.
      const results = await Promise.allSettled([
        broken.write(input('no-such-tenant', t.agentKeyId, 1)),
        broken.write(input('no-such-tenant', t.agentKeyId, 2)),
      ]);
      for (const r of results) {
        expect(r.status).toBe('rejected');
        expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'unavailable', status: 503 });
      }
      // The store is still usable afterwards.
      await expect(broken.write(input(t.tenant.id, t.agentKeyId, 3))).resolves.toMatchObject({ seq: 1 });
    } finally {
      await broken.close();
    }
  });

  it('commits durably: a committed decision survives a power cut, not only a process crash', async () => {
    if (provider === 'sqlite') {
      // 2 = FULL. better-sqlite3's build default for WAL is NORMAL (1).
      const [prisma] = await db().$queryRawUnsafe<{ synchronous: bigint | number }[]>('PRAGMA synchronous');
      expect(Number(prisma?.synchronous)).toBe(2);
      const probe = new Database(parseDatabaseUrl(process.env.DATABASE_URL).file as string);
      try {
        expect(probe.pragma('journal_mode', { simple: true })).toBe('wal');
      } finally {
        probe.close();
      }
    } else {
      const [setting] = await db().$queryRawUnsafe<{ synchronous_commit: string }[]>('SHOW synchronous_commit');
      expect(setting?.synchronous_commit).toBe('on');
    }
  });
});
