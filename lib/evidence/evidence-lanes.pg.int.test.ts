import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { parseDatabaseUrl } from '@/lib/db/database-url';
import { createRawEvidenceStore } from '@/lib/evidence/raw-evidence-store';
import { PostgresEvidenceStore } from '@/lib/evidence/pg-evidence-store';
import type { RawEvidenceStore } from '@/lib/evidence/evidence-input';
import type { EvidenceInput } from '@/lib/evidence/evidence-input';
import { evidenceHash } from '@/lib/evidence/evidence-hash';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { verifyEvidence } from '@/lib/evidence/verification/verify-evidence';
import { prevHashOf } from '@/lib/evidence/verification/walk-evidence-chain';
import { startVerificationRun, getVerificationRunOrThrow } from '@/lib/evidence/verification/verification-runs';
import { runDueVerificationRuns } from '@/lib/evidence/verification/run-verification-runs';
import { checkEvidenceChainTail } from '@/lib/overview/evidence-chain-health';
import { createTestTenant } from '@/lib/testing/fixtures';
import { hashedRecordOf, toStoredRecords, WITH_CONTRACT_HASH } from './stored-record';

// PostgreSQL only: evidence lanes (lib/evidence/evidence-lanes.ts), written by two stores as two
// instances would, with transactions held from outside.
let one: RawEvidenceStore;
let two: RawEvidenceStore;
const held: pg.Client[] = [];

beforeAll(() => {
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  one = createRawEvidenceStore(target);
  two = createRawEvidenceStore(target);
});

afterAll(async () => {
  for (const client of held) await client.end().catch(() => undefined);
  await one.close();
  await two.close();
});

let n = 0;
const input = (tenantId: string, bad = false): EvidenceInput => {
  n++;
  return {
    tenantId,
    kind: 'pre',
    requestId: `r-${n}`,
    traceId: `t-${n}`,
    callId: `c-${n}`,
    tool: 'orders.lookup',
    argsHash: '0'.repeat(64),
    decision: bad ? 'deny' : 'allow',
    valid: !bad,
    errors: bad ? [{ code: 'AXAG_PATTERN_MISMATCH', type: 'contract', message: 'no', path: '$.order_id' }] : [],
    warnings: [],
    durationMs: 1,
  };
};
const batch = (tenantId: string, size: number) => Array.from({ length: size }, (_, i) => input(tenantId, i % 3 === 0));

/** Holds the tenant's lanes `lanes` in a transaction of its own until `release`. */
async function holdLanes(tenantId: string, lanes: number[]): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  held.push(client);
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT 1 FROM "EvidenceChainHead" WHERE "tenantId" = $1 AND "lane" = ANY($2::int[]) FOR UPDATE`, [tenantId, lanes]);
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Waits until a statement like `pattern` is waiting for a row lock. */
async function waitForLockWait(pattern: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query LIKE ${pattern}`;
    if (Number(row?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no statement like ${pattern} waited for a lock`);
}

const lanesOf = async (tenantId: string) =>
  (await db().evidence.findMany({ where: { tenant: { tenantId } }, orderBy: { seq: 'asc' }, select: { seq: true, lane: true } })).map(
    (r) => [r.seq, r.lane],
  );

/**
 * Seqs 1-5 in lane 0; 6-10 in lane 1 (lane 0 held from outside meanwhile); 11-15 in lane 0
 * again (the lowest free lane is taken).
 */
async function twoLaneChain() {
  const { tenant } = await createTestTenant();
  await one.commit(batch(tenant.id, 5));
  const hold = await holdLanes(tenant.id, [0]);
  await two.commit(batch(tenant.id, 5));
  await hold.release();
  await one.commit(batch(tenant.id, 5));
  return tenant.id;
}

describe('evidence lanes on PostgreSQL', () => {
  it('let a commit go ahead while another transaction holds the lane it would have taken', { timeout: 20_000 }, async () => {
    const tenantId = await twoLaneChain();
    expect(await lanesOf(tenantId)).toEqual([
      ...[1, 2, 3, 4, 5].map((s) => [s, 0]),
      ...[6, 7, 8, 9, 10].map((s) => [s, 1]),
      ...[11, 12, 13, 14, 15].map((s) => [s, 0]),
    ]);
    // Every lane held: a commit adds a lane rather than wait.
    const hold = await holdLanes(tenantId, [0, 1]);
    const recorded = await one.commit(batch(tenantId, 2));
    await hold.release();
    expect(recorded.map((r) => r?.seq)).toEqual([16, 17]);
    expect((await db().evidence.findMany({ where: { tenant: { tenantId }, seq: { gte: 16 } } })).map((r) => r.lane)).toEqual([2, 2]);
    expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: true, records: 17, firstBroken: null });
  });

  it('keep a chain written before lanes verifying: lane 0 hashes as it did, other lanes carry their lane in the hash', async () => {
    const tenantId = await twoLaneChain();
    const rows = (
      await db().evidence.findMany({
        where: { tenant: { tenantId }, seq: { in: [5, 6] } },
        orderBy: { seq: 'asc' },
        include: WITH_CONTRACT_HASH,
      })
    ).map((row) => hashedRecordOf(row, tenantId));
    const [lane0, lane1] = rows as [(typeof rows)[number], (typeof rows)[number]];
    // Lane 0's hash leaves the lane out, exactly as records hashed before the column existed.
    const whole = async (row: typeof lane0) => ({ ...row, prevHash: await prevHashOf(tenantId, row) });
    expect(evidenceHash({ ...(await whole(lane0)), lane: undefined })).toBe(lane0.hash);
    expect(evidenceHash({ ...(await whole(lane1)), lane: 0 })).not.toBe(lane1.hash);
    // Lane 1's first record links to the genesis hash, stored as its prefix.
    expect(lane1.prevHash).toBe('0'.repeat(16));
    expect(await prevHashOf(tenantId, lane1)).toBe('0'.repeat(64));
  });

  it(
    'two writers side by side: every record verifies, seq is unique and createdAt never goes back, rollups count every record',
    { timeout: 60_000 },
    async () => {
      const { tenant } = await createTestTenant();
      const tenantId = tenant.id;
      let writing = true;
      const verdicts: boolean[] = [];
      // Incremental verifications while the writers run must never see a record on its way as a break.
      const verifier = (async () => {
        while (writing) {
          const v = await verifyEvidence({ tenantId });
          verdicts.push(v.valid);
          if (!v.valid) throw new Error(`verification during writes: ${JSON.stringify(v.firstBroken)}`);
        }
      })();
      const writes: Promise<unknown>[] = [];
      for (let round = 0; round < 30; round++) {
        writes.push(one.commit(batch(tenantId, 3)), two.commit(batch(tenantId, 2)), one.commit(batch(tenantId, 1)));
        if (round % 5 === 4) await Promise.all(writes.splice(0));
      }
      await Promise.all(writes);
      writing = false;
      await verifier;
      expect(verdicts.length).toBeGreaterThan(0);
      const total = 30 * 6;
      const rows = await db().evidence.findMany({
        where: { tenant: { tenantId } },
        orderBy: { seq: 'asc' },
        select: { seq: true, createdAt: true },
      });
      expect(rows).toHaveLength(total);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.createdAt.getTime());
      expect(await db().evidenceChainHead.count({ where: { tenantId } })).toBeGreaterThan(1);
      expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: true, records: total });
      expect(await verifyEvidence({ tenantId, mode: 'full' })).toMatchObject({ valid: true, records: total });
      expect(await checkEvidenceChainTail({ tenantId })).toMatchObject({ valid: true });
      const counted = await db().evidenceRollup.aggregate({ where: { tenantId }, _sum: { records: true } });
      expect(counted._sum.records).toBe(total);
    },
  );

  it('verify incrementally from a checkpoint that names every lane, and in a background run', async () => {
    const tenantId = await twoLaneChain();
    const first = await verifyEvidence({ tenantId });
    expect(first).toMatchObject({ valid: true, records: 15, recordedCheckpoint: { seq: 15 } });
    expect(first.recordedCheckpoint?.lanes).toEqual([
      { lane: 0, seq: 15, hash: expect.any(String) },
      { lane: 1, seq: 10, hash: expect.any(String) },
    ]);
    const hold = await holdLanes(tenantId, [0]);
    await two.commit(batch(tenantId, 3));
    await hold.release();
    expect(await verifyEvidence({ tenantId })).toMatchObject({
      valid: true,
      records: 18,
      covered: { mode: 'incremental', fromSeq: 16, toSeq: 18, checked: 3 },
    });
    const { run } = await startVerificationRun({ tenantId, requestedBy: 'system', runNow: false });
    while ((await runDueVerificationRuns({ pageSize: 4, maxRecords: 4 })) > 0);
    expect(await getVerificationRunOrThrow({ tenantId, id: run.id })).toMatchObject({ state: 'passed', checked: 18 });
  });

  it("a verification racing a new tenant's first commits is not misled by a lane added while it waited", { timeout: 20_000 }, async () => {
    const { tenant } = await createTestTenant();
    const tenantId = tenant.id;
    // Lane 0 exists and no seq is handed out yet; a writer holds lane 0.
    await db().evidenceChainHead.create({ data: { tenantId, lane: 0, seq: 0, hash: '0'.repeat(64) } });
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    held.push(writer);
    await writer.connect();
    await writer.query('BEGIN');
    await writer.query(`SELECT 1 FROM "EvidenceChainHead" WHERE "tenantId" = $1 AND "lane" = 0 FOR UPDATE`, [tenantId]);
    // The verification reads its cut and waits for lane 0's holder.
    const verifying = verifyEvidence({ tenantId, record: false });
    await waitForLockWait('%"EvidenceChainHead"%FOR SHARE%');
    // Meanwhile another writer adds lane 1 and commits seqs 1-2 there; then lane 0's holder
    // takes seqs 3-5 and commits.
    expect((await two.commit(batch(tenantId, 2))).map((r) => r?.seq)).toEqual([1, 2]);
    await writer.query(`UPDATE "EvidenceSequence" SET "seq" = "seq" + 3 WHERE "tenantId" = $1`, [tenantId]);
    await writer.query(`UPDATE "EvidenceChainHead" SET "seq" = 5 WHERE "tenantId" = $1 AND "lane" = 0`, [tenantId]);
    await writer.query('COMMIT');
    // Before, the cut was lane 0's head read after the wait (5), and records 1-2 of lane 1 (not
    // read, added after the read began) were taken for records past their lane's head.
    expect(await verifying).toMatchObject({ valid: true, firstBroken: null });
  });

  it("a verification waiting for one lane's writer leaves the other lanes free: writers add none", { timeout: 20_000 }, async () => {
    const tenantId = await twoLaneChain();
    // A writer stalled on lane 1; the verification reads lane 0's head, then waits for lane 1's.
    const hold = await holdLanes(tenantId, [1]);
    const verifying = verifyEvidence({ tenantId, record: false });
    await waitForLockWait('%"EvidenceChainHead"%FOR SHARE%');
    // Before, the verification held lane 0 shared while it waited: this commit found both
    // lanes taken and added lane 2 (a busy tenant under the dashboard's reads grew to 64).
    expect((await one.commit(batch(tenantId, 2))).map((r) => r?.seq)).toEqual([16, 17]);
    await hold.release();
    expect(await verifying).toMatchObject({ valid: true, firstBroken: null });
    expect((await db().evidence.findMany({ where: { tenant: { tenantId }, seq: { gte: 16 } } })).map((r) => r.lane)).toEqual([0, 0]);
    expect(await db().evidenceChainHead.count({ where: { tenantId } })).toBe(2);
  });

  it('a commit stalled on a lock gives up after its statement timeout, and the next commit goes on', { timeout: 20_000 }, async () => {
    const { tenant } = await createTestTenant();
    const store = new PostgresEvidenceStore(process.env.DATABASE_URL as string, () => undefined, 300);
    try {
      await store.commit(batch(tenant.id, 2));
      const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
      held.push(locker);
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Evidence" IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      await expect(store.commit(batch(tenant.id, 2))).rejects.toMatchObject({ code: '57014' });
      // Bounded by the timeout, not by the lock (held until after this).
      expect(Date.now() - started).toBeLessThan(5_000);
      await locker.query('COMMIT');
      await locker.end();
      expect((await store.commit(batch(tenant.id, 2))).map((r) => r?.seq)).toEqual([5, 6]);
      expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 4 });
    } finally {
      await store.close();
    }
  });

  it('a batch the database refuses stores nothing, moves no head, and the next commit goes on', async () => {
    const { tenant } = await createTestTenant();
    await one.commit(batch(tenant.id, 2));
    const head = await db().evidenceChainHead.findMany({ where: { tenantId: tenant.id } });
    // A record of a tenant that does not exist fails the batch's statement (its foreign key).
    const refused = [...batch(tenant.id, 3), input('cmnosuchtenant000000000000')];
    await expect(one.commit(refused)).rejects.toThrow(/foreign key/);
    expect(await db().evidence.count({ where: { tenant: { tenantId: tenant.id } } })).toBe(2);
    expect(await db().evidenceChainHead.findMany({ where: { tenantId: tenant.id } })).toEqual(head);
    const recorded = await one.commit(batch(tenant.id, 2));
    expect(recorded).toHaveLength(2);
    expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 4, firstBroken: null });
  });

  it('store every value exactly as given, whatever characters it holds (one JSON parameter per table)', async () => {
    const { tenant } = await createTestTenant();
    const awkward = JSON.stringify({ q: 'say "hi", {then} \\ back', u: 'é\u2028😀', n: 'NULL', e: '' });
    const row = { ...input(tenant.id, true), arguments: awkward, idempotencyKey: '{a,b}', durationMs: 0.1 + 0.2, executionMs: 12.345678 };
    const [recorded] = await one.commit([row]);
    const stored = await db().evidence.findUniqueOrThrow({ where: { id: recorded?.id as string } });
    expect(stored).toMatchObject({
      arguments: awkward,
      idempotencyKey: '{a,b}',
      durationMs: 0.3,
      executionMs: 12.346,
      valid: false,
      lane: 0,
    });
    expect(stored.w3cTraceparent).toBeNull();
    expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 1 });
  });

  describe('find what was changed in a lane', () => {
    const verifyBoth = async (tenantId: string) => ({
      full: (await verifyEvidence({ tenantId, mode: 'full', record: false })).firstBroken,
      chain: (await verifyEvidenceChain({ tenantId })).firstBroken,
    });

    it('a record deleted from the middle of lane 1', async () => {
      const tenantId = await twoLaneChain();
      await db().evidence.deleteMany({ where: { tenant: { tenantId }, seq: 8 } });
      const { full, chain } = await verifyBoth(tenantId);
      expect(full).toMatchObject({ seq: 9, reason: 'seq_gap' });
      expect(chain).toEqual(full);
    });

    it('a record moved to another lane', async () => {
      const tenantId = await twoLaneChain();
      await db().evidence.updateMany({ where: { tenant: { tenantId }, seq: 3 }, data: { lane: 1 } });
      expect((await verifyBoth(tenantId)).full).toMatchObject({ seq: 3, reason: 'prev_hash_mismatch' });
      // Past the head of the lane it was moved to: no writer put it there.
      const other = await twoLaneChain();
      await db().evidence.updateMany({ where: { tenant: { tenantId: other }, seq: 12 }, data: { lane: 1 } });
      expect((await verifyBoth(other)).full).toMatchObject({ seq: 12, reason: 'head_mismatch' });
    });

    it('a record edited in lane 1', async () => {
      const tenantId = await twoLaneChain();
      await db().evidence.updateMany({ where: { tenant: { tenantId }, seq: 7 }, data: { decision: 'tampered' } });
      expect((await verifyBoth(tenantId)).full).toMatchObject({ seq: 7, reason: 'hash_mismatch' });
    });

    it("lane 1's last record deleted, its head left", async () => {
      const tenantId = await twoLaneChain();
      await db().evidence.deleteMany({ where: { tenant: { tenantId }, seq: 10 } });
      expect((await verifyBoth(tenantId)).full).toMatchObject({ seq: 10, id: '', reason: 'head_mismatch' });
    });

    it('a record put in a lane past its head', async () => {
      const tenantId = await twoLaneChain();
      const last = hashedRecordOf(
        await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId }, seq: 10 }, include: WITH_CONTRACT_HASH }),
        tenantId,
      );
      const made = { ...last, id: `forged-${n++}`, seq: 16, prevHash: last.hash };
      await db().evidence.createMany({ data: await toStoredRecords([{ ...made, hash: evidenceHash(made) }]) });
      expect((await verifyBoth(tenantId)).full).toMatchObject({ seq: 16, reason: 'head_mismatch' });
    });

    it('a whole lane deleted, head and all, after a checkpoint named it', async () => {
      const tenantId = await twoLaneChain();
      expect((await verifyEvidence({ tenantId })).valid).toBe(true);
      await db().evidence.deleteMany({ where: { tenant: { tenantId }, lane: 1 } });
      await db().evidenceChainHead.delete({ where: { tenantId_lane: { tenantId, lane: 1 } } });
      // Without the checkpoint the rest still links: only what was verified before can expose it.
      expect((await verifyEvidenceChain({ tenantId })).valid).toBe(true);
      expect((await verifyEvidence({ tenantId })).firstBroken).toMatchObject({ seq: 10, reason: 'checkpoint_mismatch' });
      expect((await verifyEvidence({ tenantId, mode: 'full' })).firstBroken).toMatchObject({ seq: 10, reason: 'checkpoint_mismatch' });
    });
  });
});
