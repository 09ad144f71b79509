import { db } from '../db';
import { evidenceHash, GENESIS_HASH, payloadDigest, type EvidenceContent } from './evidence-hash';

export interface ChainVerification {
  valid: boolean;
  records: number;
  head: { seq: number; hash: string } | null;
  /** The first record whose link does not hold, and why. */
  /**
   * The first record whose link does not hold, and why. `payload_mismatch`: the record's raw
   * payloads (arguments, context, result) were changed after it was written. Payloads removed
   * altogether are what the retention purge does, and keep verifying.
   */
  firstBroken: {
    seq: number;
    id: string;
    reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'seq_gap' | 'head_mismatch' | 'payload_mismatch';
  } | null;
}

const PAGE = 1000;

type ChainBreakReason = NonNullable<ChainVerification['firstBroken']>['reason'];

/**
 * Why a stored record does not hold its place in the chain (the seq and the previous hash it
 * should have), or null when it does. Shared with the overview's check of the newest records.
 */
export function brokenLink(
  row: EvidenceContent & { hash: string; payload: string | null },
  expected: { seq: number; prevHash: string },
): ChainBreakReason | null {
  if (row.seq !== expected.seq) return 'seq_gap';
  if (row.prevHash !== expected.prevHash) return 'prev_hash_mismatch';
  if (evidenceHash(row) !== row.hash) return 'hash_mismatch';
  if (row.payloadHash && (row.arguments !== null || row.payload !== null) && payloadDigest(row.arguments, row.payload) !== row.payloadHash)
    return 'payload_mismatch';
  return null;
}

/** Walks a tenant's evidence chain in order, recomputing every hash. Streams in pages. */
export async function verifyEvidenceChain(options: { tenantId: string }): Promise<ChainVerification> {
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let records = 0;
  let last: { seq: number; hash: string } | null = null;
  for (;;) {
    const rows = await db().evidence.findMany({
      where: { tenantId: options.tenantId, seq: { gte: expectedSeq } },
      orderBy: { seq: 'asc' },
      take: PAGE,
    });
    if (rows.length === 0) break;
    for (const row of rows) {
      const broken = (reason: ChainBreakReason): ChainVerification => ({
        valid: false,
        records,
        head: last,
        firstBroken: { seq: row.seq, id: row.id, reason },
      });
      const reason = brokenLink(row, { seq: expectedSeq, prevHash });
      if (reason) return broken(reason);
      const hash = row.hash;
      prevHash = hash;
      expectedSeq++;
      records++;
      last = { seq: row.seq, hash };
    }
  }
  const head = await db().evidenceChainHead.findUnique({ where: { tenantId: options.tenantId } });
  if (head && head.seq > 0 && (head.seq !== last?.seq || head.hash !== last?.hash)) {
    return { valid: false, records, head: last, firstBroken: { seq: head.seq, id: '', reason: 'head_mismatch' } };
  }
  return { valid: true, records, head: last, firstBroken: null };
}
