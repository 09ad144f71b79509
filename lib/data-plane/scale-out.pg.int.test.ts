import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { resetEnvForTests } from '@/lib/env';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { verifyEvidence } from '@/lib/evidence/verification/verify-evidence';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { loadValidatePre, startDataPlane, type DataPlaneProcess } from '@/lib/testing/data-plane-process';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';

// PostgreSQL only: several writer processes on one database, and row locks held from outside.
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
const instances: DataPlaneProcess[] = [];
const body = (i: number) => ({
  tool: 'orders.lookup',
  call_id: `so-${i}`,
  arguments: { tenant_id: 'acme', order_id: i % 4 ? 'ord_abc123' : 'BAD' },
  context: { tenant_id: 'acme' },
});

beforeAll(async () => {
  // A small queue for the back-pressure test below; set before the first evidence write.
  process.env.TOOLGATE_EVIDENCE_QUEUE_MAX = '3';
  process.env.TOOLGATE_EVIDENCE_BATCH_MAX = '1';
  resetEnvForTests();
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(other.tenant.id, lookupOrderContract);
});

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
});

describe('two data-plane instances over one PostgreSQL', () => {
  it('keep each tenant chain intact, and record exactly what the clients were answered', { timeout: 60_000 }, async () => {
    const url = process.env.DATABASE_URL as string;
    // Their own queue settings, not the tiny ones this file uses for the back-pressure test.
    const env = { TOOLGATE_EVIDENCE_QUEUE_MAX: '4096', TOOLGATE_EVIDENCE_BATCH_MAX: '200' };
    instances.push(await startDataPlane({ databaseUrl: url, env }), await startDataPlane({ databaseUrl: url, env }));
    const urls = instances.map((i) => i.url);
    const [a, b] = await Promise.all([
      loadValidatePre({ urls, key: t.agentKey, body, workers: 12, durationMs: 20_000, untilAnswered: 300 }),
      loadValidatePre({ urls, key: other.agentKey, body, workers: 4, durationMs: 20_000, untilAnswered: 100 }),
    ]);
    expect(a.failures + b.failures).toBe(0);
    expect([...a.other.keys(), ...b.other.keys()]).toEqual([]);
    expect(a.answered.size).toBeGreaterThanOrEqual(300);
    expect(b.answered.size).toBeGreaterThanOrEqual(100);
    for (const [tenant, result] of [
      [t, a],
      [other, b],
    ] as const) {
      expect(await db().evidence.count({ where: { tenant: { tenantId: tenant.tenant.id } } })).toBe(result.answered.size);
      const chain = await verifyEvidenceChain({ tenantId: tenant.tenant.id });
      expect(chain).toMatchObject({ valid: true, records: result.answered.size });
    }
    // The two instances committed side by side, in lanes of their own (lib/evidence/evidence-lanes.ts).
    expect(await db().evidenceChainHead.count({ where: { tenantId: t.tenant.id } })).toBeGreaterThan(1);
  });

  it('one of them killed -9 under load: the other keeps answering, and every lane verifies', { timeout: 60_000 }, async () => {
    const [victim, survivor] = instances as [DataPlaneProcess, DataPlaneProcess];
    const before = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
    const checkpoint = await verifyEvidence({ tenantId: t.tenant.id });
    expect(checkpoint.valid).toBe(true);
    const load = loadValidatePre({ urls: [victim.url, survivor.url], key: t.agentKey, body, workers: 12, durationMs: 4_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await victim.kill9();
    const result = await load;
    expect(result.failures).toBeGreaterThan(0);
    // Every answered call is recorded; the killed instance's commit in flight left nothing half-written
    // (a commit can finish after the kill took its answer: recorded, never answered).
    const ids = [...result.answered.values()];
    expect(await db().evidence.count({ where: { id: { in: ids } } })).toBe(ids.length);
    const records = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
    expect(records).toBeGreaterThanOrEqual(before + ids.length);
    expect(await verifyEvidence({ tenantId: t.tenant.id })).toMatchObject({ valid: true, covered: { mode: 'incremental' } });
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records });
    const after = await call(validatePre, { key: t.agentKey, body: body(9_999) });
    expect(after.status).toBe(200);
    expect((await verifyEvidence({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});

describe('back-pressure', () => {
  it('answers 503 with Retry-After past the queue bound, never an unrecorded allow', async () => {
    await call(validatePre, { key: t.agentKey, body: body(1) });
    // Hold the tenant's seq allocator from outside, so commits wait for their seqs (a held lane
    // would not stop them: they take another, lib/evidence/evidence-lanes.ts).
    const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT * FROM "EvidenceSequence" WHERE "tenantId" = $1 FOR UPDATE`, [t.tenant.id]);
    const before = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
    const calls = Array.from({ length: 8 }, (_, i) => call(validatePre, { key: t.agentKey, body: body(100 + i) }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await blocker.query('COMMIT');
    await blocker.end();
    const results = await Promise.all(calls);
    const refused = results.filter((r) => r.status === 503);
    const answered = results.filter((r) => r.status === 200);
    // Three queued (plus one already in flight if its batch started before the rest arrived);
    // everything beyond is refused at once instead of waiting without bound.
    expect(answered.length === 3 || answered.length === 4).toBe(true);
    expect(refused).toHaveLength(8 - answered.length);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.error.details.reason).toBe('evidence_queue_full');
      expect(r.body.decision).toBeUndefined();
    }
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } })).toBe(before + answered.length);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});
