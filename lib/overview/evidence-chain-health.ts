import { GENESIS_HASH } from '../evidence/evidence-hash';
import { brokenLink, prevHashOf, readChainCut } from '../evidence/verification/walk-evidence-chain';
import type { EvidenceChainHealth } from './overview-types';
import { readEvidencePage } from '../evidence/verification/read-evidence-page';

/**
 * How many of the newest records each overview read verifies. A few hundred records are one
 * range read on the (tenantKey, seq) key and a few milliseconds of hashing, cheap enough for a
 * page that refreshes every few seconds, and more than a busy tenant writes between refreshes,
 * so every record is checked at least once while someone watches.
 */
export const CHAIN_TAIL_RECORDS = 200;

/**
 * Verifies the newest `records` of the tenant's evidence against its lane heads, as the full
 * walk (lib/evidence/verify-evidence-chain.ts) does for every record. The cut is read first and
 * the records up to it after it: records committed in between are left for the next read rather
 * than reported as a head that does not match. The oldest record checked in each lane is linked
 * to its predecessor as stored (that part is the full walk's to verify), unless it is the first;
 * a record that stores only its prevHash's prefix is linked to the hash of its lane's record
 * before it (prevHashOf: at most PREFIX_LINK_MAX_SEQS index entries back).
 */
export async function checkEvidenceChainTail(options: { tenantId: string; records?: number; now?: Date }): Promise<EvidenceChainHealth> {
  const { tenantId } = options;
  const checkedAt = (options.now ?? new Date()).toISOString();
  const cut = await readChainCut(tenantId);
  if (!cut || cut.throughSeq === 0) {
    return { checked_at: checkedAt, valid: null, records_checked: 0, from_seq: null, to_seq: null, first_broken: null };
  }
  const toSeq = cut.throughSeq;
  const fromSeq = Math.max(1, toSeq - (options.records ?? CHAIN_TAIL_RECORDS) + 1);
  // Read as the verification walk reads: a record edited to hold what a writer never stores is reported, not thrown on.
  const rows = await readEvidencePage(tenantId, fromSeq - 1, toSeq, toSeq - fromSeq + 1);
  const result = (checked: number, firstBroken: EvidenceChainHealth['first_broken']): EvidenceChainHealth => ({
    checked_at: checkedAt,
    valid: firstBroken === null,
    records_checked: checked,
    from_seq: fromSeq,
    to_seq: toSeq,
    first_broken: firstBroken,
  });
  const lanes = new Map<number, string>();
  let afterSeq = fromSeq - 1;
  let checked = 0;
  for (const row of rows) {
    const head = cut.heads.get(row.lane);
    if (!head || row.seq > head.seq) return result(checked, { seq: row.seq, reason: 'head_mismatch' });
    const prevHash = lanes.get(row.lane) ?? (fromSeq === 1 ? GENESIS_HASH : await prevHashOf(tenantId, row));
    // The first record read, when it is not the first of all, may follow a gap that is outside this read.
    const reason = brokenLink(row, { prevHash, afterSeq: checked === 0 && fromSeq > 1 ? row.seq - 1 : afterSeq });
    if (reason) return result(checked, { seq: row.seq, reason });
    lanes.set(row.lane, row.hash);
    afterSeq = row.seq;
    checked++;
  }
  // Records missing after the last one found in a lane, or a head that names another record.
  for (const [lane, head] of cut.heads) {
    if (head.seq > toSeq || head.seq < fromSeq) continue;
    if (lanes.get(lane) !== head.hash) return result(checked, { seq: head.seq, reason: 'head_mismatch' });
  }
  return result(checked, null);
}
