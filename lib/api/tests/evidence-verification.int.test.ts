import { describe, expect, it } from 'vitest';
import { db, dbProvider } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import {
  appendPastHead,
  appendRecords,
  deleteRecord,
  editRecord,
  insertRecordAfter,
  recordAt,
  rewriteFrom,
  swapRecords,
  truncate,
} from '@/lib/testing/evidence-tampering';
import { checkpointMac } from '@/lib/evidence/verification/verification-mac';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';
import { overviewHandler as overview } from '@/lib/api/handlers/overview';
import { verifyEvidence } from '@/lib/evidence/verification/verify-evidence';
import { startVerificationRun } from '@/lib/evidence/verification/verification-runs';
import { settleVerificationRuns } from '@/lib/evidence/verification/run-verification-runs';
import { resetEnvForTests } from '@/lib/env';

// GET /api/v1/evidence/verify: incremental from the newest verified checkpoint (docs/evidence.md#verification).

async function tenantWithChain(records: number) {
  const t = await createTestTenant();
  await appendRecords(t.tenant.id, records);
  return t;
}
const incremental = (key: string) => call(verify, { key });
const full = (key: string) => call(verify, { key, path: '/api/v1/evidence/verify?mode=full' });
const checkpoints = (tenantId: string) => db().evidenceCheckpoint.findMany({ where: { tenantId }, orderBy: { seq: 'asc' } });

/** A chain of `before` records verified once (a checkpoint at `before`), then `after` more. */
async function verifiedThenGrown(before: number, after: number) {
  const t = await tenantWithChain(before);
  expect((await incremental(t.adminKey)).body.recordedCheckpoint).toMatchObject({ seq: before });
  if (after > 0) await appendRecords(t.tenant.id, after);
  return t;
}

describe('incremental verification', () => {
  it('walks every record the first time and records a checkpoint; afterwards reads only what is new', async () => {
    const t = await tenantWithChain(30);
    const first = await incremental(t.adminKey);
    expect(first.status).toBe(200);
    const last = await recordAt(t.tenant.id, 30);
    expect(first.body).toMatchObject({
      valid: true,
      records: 30,
      head: { seq: 30, hash: last.hash },
      firstBroken: null,
      covered: { mode: 'full', fromSeq: 1, toSeq: 30, checked: 30, checkpoint: null },
      ignoredCheckpoints: [],
      recordedCheckpoint: { seq: 30, hash: last.hash, records: 30, source: 'request' },
    });
    const stored = await checkpoints(t.tenant.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: first.body.recordedCheckpoint.id, seq: 30, hash: last.hash, records: 30 });

    await appendRecords(t.tenant.id, 5);
    const second = await incremental(t.adminKey);
    expect(second.body).toMatchObject({
      valid: true,
      records: 35,
      head: { seq: 35 },
      covered: { mode: 'incremental', fromSeq: 31, toSeq: 35, checked: 5, checkpoint: { id: stored[0]!.id, seq: 30 } },
      recordedCheckpoint: { seq: 35, records: 35 },
    });

    const nothingNew = await incremental(t.adminKey);
    expect(nothingNew.body).toMatchObject({
      valid: true,
      records: 35,
      head: { seq: 35 },
      covered: { mode: 'incremental', fromSeq: null, toSeq: null, checked: 0, checkpoint: { seq: 35 } },
      recordedCheckpoint: null,
    });

    const whole = await full(t.adminKey);
    expect(whole.body).toMatchObject({
      valid: true,
      records: 35,
      covered: { mode: 'full', fromSeq: 1, toSeq: 35, checked: 35, checkpoint: null },
      recordedCheckpoint: null,
    });
    expect((await checkpoints(t.tenant.id)).map((c) => c.seq)).toEqual([30, 35]);
  });

  it('finds a record changed after the checkpoint, and records no checkpoint', async () => {
    const t = await verifiedThenGrown(20, 10);
    await editRecord(t.tenant.id, 25);
    const res = await incremental(t.adminKey);
    expect(res.body).toMatchObject({
      valid: false,
      records: 24,
      head: { seq: 24 },
      firstBroken: { seq: 25, id: (await recordAt(t.tenant.id, 25)).id, reason: 'hash_mismatch' },
      covered: { mode: 'incremental', fromSeq: 21, toSeq: 25, checked: 4, checkpoint: { seq: 20 } },
      recordedCheckpoint: null,
    });
    expect(await checkpoints(t.tenant.id)).toHaveLength(1);
  });

  it('relies on the checkpoint for a record changed before it, and says so; the full walk finds it', async () => {
    const t = await verifiedThenGrown(20, 0);
    await editRecord(t.tenant.id, 7);
    const relied = await incremental(t.adminKey);
    expect(relied.body).toMatchObject({ valid: true, covered: { mode: 'incremental', checked: 0, checkpoint: { seq: 20 } } });
    const whole = await full(t.adminKey);
    expect(whole.body).toMatchObject({
      valid: false,
      records: 6,
      firstBroken: { seq: 7, reason: 'hash_mismatch' },
      covered: { mode: 'full' },
    });
  });

  it('checks the record at the checkpoint itself', async () => {
    const t = await verifiedThenGrown(20, 3);
    await editRecord(t.tenant.id, 20);
    const res = await incremental(t.adminKey);
    expect(res.body).toMatchObject({ valid: false, firstBroken: { seq: 20, reason: 'hash_mismatch' }, covered: { checked: 0 } });
  });

  it('finds a chain rewritten before the checkpoint with every hash recomputed, which links perfectly', async () => {
    const t = await verifiedThenGrown(20, 5);
    await rewriteFrom(t.tenant.id, 7);
    // The links alone cannot tell: only the checkpoint, under the instance secret, can.
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 25 });
    const res = await incremental(t.adminKey);
    expect(res.body).toMatchObject({ valid: false, firstBroken: { seq: 20, reason: 'checkpoint_mismatch' } });
    const whole = await full(t.adminKey);
    expect(whole.body).toMatchObject({ valid: false, records: 19, firstBroken: { seq: 20, reason: 'checkpoint_mismatch' } });
  });

  it('finds records cut off the end after a checkpoint, the head moved back with them', async () => {
    const t = await verifiedThenGrown(20, 0);
    await truncate(t.tenant.id, 3);
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 17 });
    expect((await incremental(t.adminKey)).body).toMatchObject({
      valid: false,
      firstBroken: { seq: 20, id: '', reason: 'checkpoint_mismatch' },
      covered: { mode: 'incremental', fromSeq: null, toSeq: null, checked: 0, checkpoint: { seq: 20 } },
    });
    expect((await full(t.adminKey)).body).toMatchObject({ valid: false, firstBroken: { seq: 20, id: '', reason: 'checkpoint_mismatch' } });
  });

  describe('finds records deleted, inserted or reordered after the checkpoint', () => {
    it.each([
      ['a record deleted', (id: string) => deleteRecord(id, 15), { seq: 16, reason: 'seq_gap' }],
      ['a record inserted', (id: string) => insertRecordAfter(id, 14), { seq: 16, reason: 'prev_hash_mismatch' }],
      ['two records swapped', (id: string) => swapRecords(id, 14, 15), { seq: 14, reason: 'prev_hash_mismatch' }],
      ['the last record deleted', (id: string) => deleteRecord(id, 20), { seq: 20, id: '', reason: 'head_mismatch' }],
      ['a record appended past the head', (id: string) => appendPastHead(id), { seq: 21, reason: 'head_mismatch' }],
    ] as const)('%s', async (_name, change, expected) => {
      const t = await verifiedThenGrown(10, 10);
      await change(t.tenant.id);
      const res = await incremental(t.adminKey);
      expect(res.body).toMatchObject({ valid: false, firstBroken: expected, covered: { mode: 'incremental', fromSeq: 11 } });
    });
  });
});

describe('checkpoints that do not hold', () => {
  const forge = async (tenantId: string, seq: number, mac: (fields: Parameters<typeof checkpointMac>[1]) => string) => {
    const fields = { tenantId, seq, hash: (await recordAt(tenantId, seq)).hash, records: seq, verifiedAt: new Date(), source: 'request' };
    return db().evidenceCheckpoint.create({ data: { ...fields, mac: mac(fields) } });
  };

  it('ignores and reports a checkpoint whose MAC does not hold, so it cannot hide a change', async () => {
    const t = await verifiedThenGrown(20, 10);
    await editRecord(t.tenant.id, 25);
    // A database-only attacker's checkpoint past the change, to make the verify skip it.
    const forged = await forge(t.tenant.id, 30, () => 'f'.repeat(64));
    const res = await incremental(t.adminKey);
    expect(res.body).toMatchObject({
      valid: false,
      firstBroken: { seq: 25, reason: 'hash_mismatch' },
      covered: { mode: 'incremental', fromSeq: 21, checkpoint: { seq: 20 } },
      ignoredCheckpoints: [{ id: forged.id, seq: 30, reason: 'mac_mismatch' }],
    });
    // It stays, reported by every verification.
    expect((await full(t.adminKey)).body.ignoredCheckpoints).toEqual([{ id: forged.id, seq: 30, reason: 'mac_mismatch' }]);
  });

  it('ignores a checkpoint made under another secret, and one moved from another tenant', async () => {
    const t = await tenantWithChain(12);
    const other = await verifiedThenGrown(12, 0);
    const otherSecret = await forge(t.tenant.id, 12, (fields) => checkpointMac('another-instance-secret-0123456789abcdef', fields));
    const [theirs] = await checkpoints(other.tenant.id);
    const moved = await db().evidenceCheckpoint.create({ data: { ...theirs!, id: undefined, tenantId: t.tenant.id } });
    const res = await incremental(t.adminKey);
    expect(res.body).toMatchObject({ valid: true, records: 12, covered: { mode: 'full', checkpoint: null, checked: 12 } });
    expect(res.body.ignoredCheckpoints.map((c: { id: string }) => c.id).sort()).toEqual([otherSecret.id, moved.id].sort());
    // The other tenant's own checkpoint still holds for it.
    expect((await incremental(other.adminKey)).body).toMatchObject({ covered: { mode: 'incremental', checkpoint: { id: theirs!.id } } });
  });

  it('keeps the newest few valid checkpoints per tenant', async () => {
    const t = await tenantWithChain(3);
    for (let i = 0; i < 7; i++) {
      await appendRecords(t.tenant.id, 1);
      await incremental(t.adminKey);
    }
    expect((await checkpoints(t.tenant.id)).map((c) => c.seq)).toEqual([6, 7, 8, 9, 10]);
  });
});

describe('GET /api/v1/evidence/verify', () => {
  it('answers 401 without a key, 403 to a key without the admin scope, 400 to an unknown mode', async () => {
    const t = await tenantWithChain(2);
    const anonymous = await call(verify, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    const agent = await call(verify, { key: t.agentKey });
    expect(agent.status).toBe(403);
    expect(agent.body.error.code).toBe('forbidden');
    const bad = await call(verify, { key: t.adminKey, path: '/api/v1/evidence/verify?mode=partial' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    expect(await checkpoints(t.tenant.id)).toHaveLength(0);
  });

  it('stops reading when the client goes away, records no checkpoint, and the next verify walks it all', async () => {
    const t = await tenantWithChain(2_500);
    const gone = new AbortController();
    gone.abort();
    const response = await verify(
      new Request('http://localhost/api/v1/evidence/verify', { headers: { authorization: `Bearer ${t.adminKey}` }, signal: gone.signal }),
      { params: Promise.resolve({}) },
    );
    expect([response.status, (await response.json()).error.code]).toEqual([499, 'client_closed']);
    expect(await checkpoints(t.tenant.id)).toHaveLength(0);

    // Gone after the first page of 1,000: the walk throws there, not a partial "valid" answer.
    let pages = 0;
    const leavesAfterOnePage = {
      throwIfAborted: () => {
        if (++pages > 1) throw new DOMException('The client went away', 'AbortError');
      },
    } as unknown as AbortSignal;
    await expect(verifyEvidence({ tenantId: t.tenant.id, signal: leavesAfterOnePage })).rejects.toThrow('The client went away');
    expect(pages).toBe(2);
    expect(await checkpoints(t.tenant.id)).toHaveLength(0);

    expect((await incremental(t.adminKey)).body).toMatchObject({ valid: true, records: 2_500, recordedCheckpoint: { seq: 2_500 } });
    // Its 2,500-record chain takes 8 s to build on PostgreSQL on a quiet machine, and passed 30 s
    // while browser tests shared the two cores.
  }, 120_000);

  it('refuses a walk longer than TOOLGATE_VERIFY_MAX_RECORDS with 409 before reading; a verification run brings it back under', async () => {
    const t = await tenantWithChain(30);
    process.env.TOOLGATE_VERIFY_MAX_RECORDS = '20';
    resetEnvForTests();
    try {
      const refused = await incremental(t.adminKey);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'verification_too_large',
        details: { records: 30, max: 20, fromSeq: 1, throughSeq: 30 },
      });
      expect(refused.body.error.message).toContain('POST /api/v1/evidence/verify/runs');
      expect((await full(t.adminKey)).body.error.code).toBe('verification_too_large');
      expect(await checkpoints(t.tenant.id)).toHaveLength(0);

      // The run reads any length; its checkpoint is what the next verify starts from.
      await startVerificationRun({ tenantId: t.tenant.id, requestedBy: 'system' });
      await settleVerificationRuns();
      expect(await checkpoints(t.tenant.id)).toMatchObject([{ seq: 30, source: 'run' }]);
      await appendRecords(t.tenant.id, 20);
      expect((await incremental(t.adminKey)).body).toMatchObject({
        valid: true,
        records: 50,
        covered: { mode: 'incremental', fromSeq: 31, toSeq: 50, checked: 20, checkpoint: { seq: 30 } },
      });
      await appendRecords(t.tenant.id, 21);
      expect((await incremental(t.adminKey)).body.error).toMatchObject({
        code: 'verification_too_large',
        details: { records: 21, fromSeq: 51, throughSeq: 71 },
      });
      expect((await full(t.adminKey)).body.error.details).toMatchObject({ records: 71, fromSeq: 1 });

      process.env.TOOLGATE_VERIFY_MAX_RECORDS = '0';
      resetEnvForTests();
      expect((await full(t.adminKey)).body).toMatchObject({ valid: true, records: 71, covered: { mode: 'full', checked: 71 } });
    } finally {
      delete process.env.TOOLGATE_VERIFY_MAX_RECORDS;
      resetEnvForTests();
    }
  });

  // Values no writer stores, put there by hand: the adapter threw converting one timestamp, the
  // hashing another, and verification answered 500 where it had a broken record to report.
  const unhashable: Record<'sqlite' | 'postgresql', [column: string, value: string][]> = {
    sqlite: [
      ['createdAt', `'not a time'`],
      ['createdAt', `9999999999999999999`],
      ['durationMs', `'fast'`],
      ['durationMs', `'1e999'`],
      ['executionMs', `'x'`],
    ],
    postgresql: [
      ['createdAt', `'infinity'`],
      ['createdAt', `'294276-12-31 00:00:00'`],
      ['durationMs', `'NaN'`],
      ['durationMs', `'Infinity'`],
      ['executionMs', `'-Infinity'`],
    ],
  };
  it.each(unhashable[dbProvider()])(
    'reports a record whose %s was set to %s as changed, with every kind of walk',
    async (column, value) => {
      const t = await tenantWithChain(6);
      const { id } = await recordAt(t.tenant.id, 4);
      await db().$executeRawUnsafe(
        `UPDATE "Evidence" SET "${column}" = ${value} WHERE "id" = ${dbProvider() === 'sqlite' ? '?' : '$1'}`,
        id,
      );
      const broken = { seq: 4, id, reason: 'hash_mismatch' };
      for (const answer of [await incremental(t.adminKey), await full(t.adminKey)]) {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ valid: false, records: 3, firstBroken: broken });
      }
      // The overview's tail check reads the newest records the same way.
      const shown = await call(overview, { key: t.adminKey });
      expect(shown.status).toBe(200);
      expect(shown.body.evidence_chain).toMatchObject({ valid: false, first_broken: { seq: 4, reason: 'hash_mismatch' } });
      const { run } = await startVerificationRun({ tenantId: t.tenant.id, requestedBy: 'system' });
      await settleVerificationRuns();
      expect(
        await db().evidenceVerificationRun.findUnique({
          where: { id: run.id },
          select: { state: true, firstBrokenSeq: true, firstBrokenReason: true, error: true },
        }),
      ).toMatchObject({
        state: 'failed',
        firstBrokenSeq: 4,
        firstBrokenReason: 'hash_mismatch',
      });
    },
  );

  // SQLite keeps text in an INTEGER column: a copied record with seq 'abc' could not be read by
  // Prisma (every verify answered 503, "cannot reach its database"), and sorting after every
  // number, a run's walk never met it: runs passed once the chain grew. PostgreSQL refuses the row.
  it('reports a record whose seq is not a whole number, in every verify and run', async () => {
    const t = await tenantWithChain(6);
    const { id } = await recordAt(t.tenant.id, 3);
    const columns = (
      await db()
        .evidence.findUniqueOrThrow({ where: { id }, omit: { id: true, seq: true } })
        .then((row) => Object.keys(row))
    ).map((column) => `"${column}"`);
    const copy = (seq: string) =>
      db().$executeRawUnsafe(
        `INSERT INTO "Evidence" ("id", "seq", ${columns.join(', ')}) SELECT 'forged', ${seq}, ${columns.join(', ')} FROM "Evidence" WHERE "id" = ${dbProvider() === 'sqlite' ? '?' : '$1'}`,
        id,
      );
    if (dbProvider() === 'postgresql') {
      await expect(copy(`'abc'`)).rejects.toThrow();
      return;
    }
    await copy(`'abc'`);
    const broken = { seq: 0, id: 'forged', reason: 'seq_malformed' };
    for (const answer of [await incremental(t.adminKey), await full(t.adminKey)]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ valid: false, firstBroken: broken });
    }
    const { run } = await startVerificationRun({ tenantId: t.tenant.id, requestedBy: 'system' });
    await settleVerificationRuns();
    expect(await db().evidenceVerificationRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      state: 'failed',
      firstBrokenReason: 'seq_malformed',
      firstBrokenId: 'forged',
    });
    expect(await checkpoints(t.tenant.id)).toEqual([]);
  });

  it.each(unhashable[dbProvider()])('reports the record a checkpoint names once its %s was set to %s', async (column, value) => {
    const t = await verifiedThenGrown(6, 2);
    const { id } = await recordAt(t.tenant.id, 6);
    await db().$executeRawUnsafe(`UPDATE "Evidence" SET "${column}" = ${value} WHERE "id" = ${dbProvider() === 'sqlite' ? '?' : '$1'}`, id);
    const answer = await incremental(t.adminKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      valid: false,
      firstBroken: { seq: 6, id, reason: 'hash_mismatch' },
      covered: { checkpoint: { seq: 6 } },
    });
  });

  it('answers an empty chain as valid with nothing covered', async () => {
    const t = await createTestTenant();
    expect((await incremental(t.adminKey)).body).toEqual({
      valid: true,
      records: 0,
      head: null,
      firstBroken: null,
      covered: { mode: 'full', fromSeq: null, toSeq: null, checked: 0, checkpoint: null },
      ignoredCheckpoints: [],
      recordedCheckpoint: null,
    });
  });
});
