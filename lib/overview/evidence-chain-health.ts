import { db } from '../db';
import { GENESIS_HASH } from '../evidence/evidence-hash';
import { brokenLink } from '../evidence/verify-evidence-chain';
import type { EvidenceChainHealth } from './overview-types';

/**
 * How many of the newest records each overview read verifies. A few hundred records are one
 * range read on the (tenantId, seq) key and a few milliseconds of hashing, cheap enough for a
 * page that refreshes every few seconds, and more than a busy tenant writes between refreshes,
 * so every record is checked at least once while someone watches.
 */
export const CHAIN_TAIL_RECORDS = 200;

/**
 * Verifies the newest `records` of the tenant's chain against its head, as the full walk
 * (lib/evidence/verify-evidence-chain.ts) does for every record. The head is read first and the
 * records up to its seq after it: records committed in between are left for the next read
 * rather than reported as a head that does not match. The oldest record checked is linked to
 * its predecessor as stored (that part is the full walk's to verify), unless it is the first.
 */
export async function checkEvidenceChainTail(options: { tenantId: string; records?: number; now?: Date }): Promise<EvidenceChainHealth> {
  const { tenantId } = options;
  const checkedAt = (options.now ?? new Date()).toISOString();
  const head = await db().evidenceChainHead.findUnique({ where: { tenantId } });
  if (!head || head.seq === 0) {
    return { checked_at: checkedAt, valid: null, records_checked: 0, from_seq: null, to_seq: null, first_broken: null };
  }
  const fromSeq = Math.max(1, head.seq - (options.records ?? CHAIN_TAIL_RECORDS) + 1);
  const rows = await db().evidence.findMany({ where: { tenantId, seq: { gte: fromSeq, lte: head.seq } }, orderBy: { seq: 'asc' } });
  const result = (checked: number, firstBroken: EvidenceChainHealth['first_broken']): EvidenceChainHealth => ({
    checked_at: checkedAt,
    valid: firstBroken === null,
    records_checked: checked,
    from_seq: fromSeq,
    to_seq: head.seq,
    first_broken: firstBroken,
  });
  let prevHash = fromSeq === 1 ? GENESIS_HASH : (rows[0]?.prevHash ?? GENESIS_HASH);
  let expectedSeq = fromSeq;
  for (const row of rows) {
    const reason = brokenLink(row, { seq: expectedSeq, prevHash });
    if (reason) return result(expectedSeq - fromSeq, { seq: row.seq, reason });
    prevHash = row.hash;
    expectedSeq++;
  }
  // Records missing after the last one found, or a head that names another record.
  if (expectedSeq !== head.seq + 1 || prevHash !== head.hash) return result(rows.length, { seq: head.seq, reason: 'head_mismatch' });
  return result(rows.length, null);
}
