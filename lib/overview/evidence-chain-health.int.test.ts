import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { recordEvidence } from '@/lib/evidence/record-evidence';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { createTestTenant } from '@/lib/testing/fixtures';
import { checkEvidenceChainTail } from './evidence-chain-health';
import { seedEvidenceAt } from './seed-evidence-at';
import { storedHash } from '../evidence/stored-hashes';

const NOW = new Date('2026-11-20T12:30:00.000Z');

/** A tenant with `n` valid records, one a minute before NOW. */
async function tenantWith(n: number) {
  const { tenant } = await createTestTenant();
  const seeded = await seedEvidenceAt(
    tenant.id,
    Array.from({ length: n }, (_, i) => ({ at: new Date(NOW.getTime() - (n - i) * 60_000) })),
  );
  return { tenantId: tenant.id, seeded };
}

describe('checkEvidenceChainTail', () => {
  it('has nothing to verify before the first record', async () => {
    const { tenant } = await createTestTenant();
    expect(await checkEvidenceChainTail({ tenantId: tenant.id, now: NOW })).toEqual({
      checked_at: NOW.toISOString(),
      valid: null,
      records_checked: 0,
      from_seq: null,
      to_seq: null,
      first_broken: null,
    });
  });

  it('verifies the newest records up to the head, or the whole chain when it is shorter', async () => {
    const { tenantId } = await tenantWith(30);
    expect(await checkEvidenceChainTail({ tenantId, records: 10, now: NOW })).toEqual({
      checked_at: NOW.toISOString(),
      valid: true,
      records_checked: 10,
      from_seq: 21,
      to_seq: 30,
      first_broken: null,
    });
    expect(await checkEvidenceChainTail({ tenantId, now: NOW })).toMatchObject({
      valid: true,
      records_checked: 30,
      from_seq: 1,
      to_seq: 30,
    });
  });

  it('verifies what the evidence writer commits', async () => {
    const { tenant } = await createTestTenant();
    for (let i = 0; i < 3; i++) {
      await recordEvidence({
        tenantId: tenant.id,
        kind: 'pre',
        requestId: `r-${i}`,
        traceId: `t-${i}`,
        callId: `c-${i}`,
        tool: 'orders.lookup',
        argsHash: 'a'.repeat(64),
        decision: 'allow',
        valid: true,
        errors: [],
        warnings: [],
        durationMs: 0.5,
        arguments: '{"order_id":"ord_1"}',
        payload: '{"result":{"ok":true}}',
      });
    }
    expect(await checkEvidenceChainTail({ tenantId: tenant.id })).toMatchObject({
      valid: true,
      records_checked: 3,
      from_seq: 1,
      to_seq: 3,
    });
  });

  it('finds a changed record, a broken link and a missing last record in the newest records, as the full walk does', async () => {
    const { tenantId, seeded } = await tenantWith(30);
    const record = (seq: number) => seeded[seq - 1]!.id;

    await db().evidence.update({ where: { id: record(25) }, data: { decision: 'deny' } });
    expect(await checkEvidenceChainTail({ tenantId, records: 10, now: NOW })).toMatchObject({
      valid: false,
      records_checked: 4,
      from_seq: 21,
      to_seq: 30,
      first_broken: { seq: 25, reason: 'hash_mismatch' },
    });
    expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: false, firstBroken: { seq: 25, reason: 'hash_mismatch' } });
    await db().evidence.update({ where: { id: record(25) }, data: { decision: 'allow' } });

    await db().evidence.update({ where: { id: record(27) }, data: { prevHash: storedHash('f'.repeat(64)) } });
    expect(await checkEvidenceChainTail({ tenantId, records: 10 })).toMatchObject({
      valid: false,
      first_broken: { seq: 27, reason: 'prev_hash_mismatch' },
    });
    const original = await db().evidence.findUniqueOrThrow({ where: { id: record(26) } });
    await db().evidence.update({ where: { id: record(27) }, data: { prevHash: original.hash } });
    expect(await checkEvidenceChainTail({ tenantId, records: 10 })).toMatchObject({ valid: true });

    await db().evidence.delete({ where: { id: record(30) } });
    expect(await checkEvidenceChainTail({ tenantId, records: 10 })).toMatchObject({
      valid: false,
      records_checked: 9,
      first_broken: { seq: 30, reason: 'head_mismatch' },
    });
    expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: false, firstBroken: { seq: 30, reason: 'head_mismatch' } });
  });

  it('finds a record missing in the middle, and leaves records older than the newest to the full walk', async () => {
    const { tenantId, seeded } = await tenantWith(30);
    await db().evidence.update({ where: { id: seeded[4]!.id }, data: { decision: 'deny' } });
    // Seq 5 is not among the newest ten: the overview's check passes, the full walk does not.
    expect(await checkEvidenceChainTail({ tenantId, records: 10 })).toMatchObject({ valid: true, from_seq: 21 });
    expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: false, firstBroken: { seq: 5, reason: 'hash_mismatch' } });

    await db().evidence.delete({ where: { id: seeded[22]!.id } });
    expect(await checkEvidenceChainTail({ tenantId, records: 10 })).toMatchObject({
      valid: false,
      records_checked: 2,
      first_broken: { seq: 24, reason: 'seq_gap' },
    });
  });
});
