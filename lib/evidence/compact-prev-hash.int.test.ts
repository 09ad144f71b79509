import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { seedEvidenceAt } from '../overview/seed-evidence-at';
import { checkEvidenceChainTail } from '../overview/evidence-chain-health';
import { chainRecords, type LaneHead } from './chain-records';
import { evidenceHash, GENESIS_HASH, PREFIX_LINK_MAX_SEQS } from './evidence-hash';
import type { EvidenceInput } from './evidence-input';
import { verifyEvidenceChain } from './verify-evidence-chain';
import { verifyEvidence } from './verification/verify-evidence';
import { prevHashOf } from './verification/walk-evidence-chain';
import { fromStoredEvidence, storedHash } from './stored-hashes';

const input = (tenantId: string): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: 'r',
  traceId: 't'.repeat(32),
  callId: 'c',
  tool: 'orders.lookup',
  argsHash: '0'.repeat(64),
  decision: 'allow',
  valid: true,
  errors: [],
  warnings: [],
  durationMs: 1,
});

describe('chainRecords: prevHash stored as a prefix', () => {
  it('hashes with the whole previous hash and stores its first 16 characters', () => {
    const heads = new Map<string, LaneHead>([['t1', { lane: 0, seq: 0, hash: GENESIS_HASH }]]);
    const { rows } = chainRecords([input('t1'), input('t1')], heads, new Date('2026-11-27T12:00:00Z'));
    const [first, second] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(first.prevHash).toBe('0'.repeat(16));
    expect(second.prevHash).toBe(first.hash.slice(0, 16));
    expect(evidenceHash({ ...first, prevHash: GENESIS_HASH })).toBe(first.hash);
    expect(evidenceHash({ ...second, prevHash: first.hash })).toBe(second.hash);
    // The prefix alone is not what was hashed.
    expect(evidenceHash(second)).not.toBe(second.hash);
  });

  it('stores the whole hash when the lane’s previous record is further back than a lookup reads', () => {
    const near: LaneHead = { lane: 1, seq: 10, hash: 'a'.repeat(64), nextSeq: 10 + PREFIX_LINK_MAX_SEQS };
    const far: LaneHead = { lane: 1, seq: 10, hash: 'a'.repeat(64), nextSeq: 11 + PREFIX_LINK_MAX_SEQS };
    const at = new Date('2026-11-27T12:00:00Z');
    expect(chainRecords([input('t1')], new Map([['t1', near]]), at).rows[0]?.prevHash).toBe('a'.repeat(16));
    expect(chainRecords([input('t1')], new Map([['t1', far]]), at).rows[0]?.prevHash).toBe('a'.repeat(64));
  });
});

describe('verification of chains with stored prefixes', () => {
  let tenantId: string;
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

  beforeAll(async () => {
    tenantId = (await createTestTenant()).tenant.id;
    await seedEvidenceAt(
      tenantId,
      Array.from({ length: 6 }, (_, i) => ({ at: minutesAgo(60 - i) })),
    );
    // Records 1-3 as written before compact evidence: the whole prevHash stored.
    for (const seq of [1, 2, 3]) {
      const row = fromStoredEvidence(await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId }, seq } }));
      await db().evidence.update({ where: { id: row.id }, data: { prevHash: storedHash(await prevHashOf(tenantId, row)) } });
    }
  });

  it('verifies old whole and new prefixed records in one chain, fully, incrementally and in the overview’s tail', async () => {
    const stored = await db().evidence.findMany({ where: { tenant: { tenantId } }, orderBy: { seq: 'asc' }, select: { prevHash: true } });
    // As bytes: 32 for a whole hash, 8 for the prefix.
    expect(stored.map((r) => r.prevHash.length)).toEqual([32, 32, 32, 8, 8, 8]);
    expect(await verifyEvidenceChain({ tenantId })).toMatchObject({ valid: true, records: 6, firstBroken: null });
    expect(await verifyEvidence({ tenantId })).toMatchObject({ valid: true, firstBroken: null });
    await seedEvidenceAt(tenantId, [{ at: minutesAgo(10) }, { at: minutesAgo(9) }]);
    // Incremental: from the checkpoint the first verify recorded, whose newest record stores a prefix.
    expect(await verifyEvidence({ tenantId })).toMatchObject({ valid: true, covered: { mode: 'incremental', checked: 2 } });
    // A tail that starts at a prefixed record looks its predecessor up.
    expect(await checkEvidenceChainTail({ tenantId, records: 3 })).toMatchObject({ valid: true, records_checked: 3, from_seq: 6 });
  });

  it('finds a changed prefix, a deleted predecessor and an edited record, and says where', async () => {
    const t = (await createTestTenant()).tenant.id;
    await seedEvidenceAt(
      t,
      Array.from({ length: 8 }, (_, i) => ({ at: minutesAgo(30 - i) })),
    );
    const at = async (seq: number) => fromStoredEvidence(await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: t }, seq } }));
    const original = await at(4);
    await db().evidence.update({ where: { id: original.id }, data: { prevHash: storedHash('f'.repeat(16)) } });
    expect(await verifyEvidenceChain({ tenantId: t })).toMatchObject({
      valid: false,
      firstBroken: { seq: 4, reason: 'prev_hash_mismatch' },
    });
    expect(await checkEvidenceChainTail({ tenantId: t, records: 5 })).toMatchObject({
      valid: false,
      first_broken: { seq: 4, reason: 'prev_hash_mismatch' },
    });
    // A prefix of another length is not a prefix.
    await db().evidence.update({ where: { id: original.id }, data: { prevHash: storedHash(original.prevHash.slice(0, 14)) } });
    expect(await verifyEvidenceChain({ tenantId: t })).toMatchObject({ firstBroken: { seq: 4, reason: 'prev_hash_mismatch' } });
    await db().evidence.update({ where: { id: original.id }, data: { prevHash: storedHash(original.prevHash) } });
    expect(await verifyEvidenceChain({ tenantId: t })).toMatchObject({ valid: true });

    await db().evidence.update({ where: { id: (await at(6)).id }, data: { decision: 'deny' } });
    expect(await verifyEvidenceChain({ tenantId: t })).toMatchObject({ firstBroken: { seq: 6, reason: 'hash_mismatch' } });
    // The overview's tail starting at the edited record: its predecessor looked up, its hash recomputed.
    expect(await checkEvidenceChainTail({ tenantId: t, records: 3 })).toMatchObject({
      valid: false,
      first_broken: { seq: 6, reason: 'hash_mismatch' },
    });
    await db().evidence.update({ where: { id: (await at(6)).id }, data: { decision: 'allow' } });

    await db().evidence.delete({ where: { id: (await at(2)).id } });
    expect(await verifyEvidenceChain({ tenantId: t })).toMatchObject({ firstBroken: { seq: 3, reason: 'seq_gap' } });
    // Starting at seq 3 (the tail of 6 records): its lane's record before it is seq 1, whose hash the prefix does not name.
    expect(await checkEvidenceChainTail({ tenantId: t, records: 6 })).toMatchObject({ valid: false, first_broken: { seq: 3 } });
  });
});
