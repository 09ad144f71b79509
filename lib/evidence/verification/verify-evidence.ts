import { db } from '../../db';
import { getInstanceSecret } from '../../auth/instance-secret';
import { GENESIS_HASH } from '../evidence-hash';
import { checkpointHashes, loadCheckpoints, recordCheckpoint } from './evidence-checkpoints';
import { brokenLink, checkChainEnd, readChainHead, walkEvidenceChain, type ChainPoint } from './walk-evidence-chain';
import type { BrokenLink, CheckpointView, EvidenceVerification, VerifyMode } from './verification-types';

/**
 * GET /api/v1/evidence/verify. `incremental` (the default) relies on the newest checkpoint whose
 * MAC holds: it checks that the record at the checkpoint's seq is still the one verified (same
 * hash, content still hashing to it), then walks only the records after it, so a verify after
 * the first full pass reads what is new. `full` walks from the first record. Either way every
 * record read is recomputed and linked, valid checkpoints inside the range are compared with
 * the records at their seq, and the walk must end at the chain head. A verification that
 * passes records a checkpoint at the last record (when the chain grew since the newest one).
 *
 * What the incremental answer does not re-read, records up to the checkpoint, is what a full
 * verification run (./verification-runs.ts) is for; the answer names the checkpoint it relied on.
 */
export async function verifyEvidence(options: {
  tenantId: string;
  mode?: VerifyMode;
  /** Record a checkpoint when it passes (default true). */
  record?: boolean;
  now?: Date;
}): Promise<EvidenceVerification> {
  const { tenantId } = options;
  const incremental = (options.mode ?? 'incremental') === 'incremental';
  const secret = await getInstanceSecret();
  // Checkpoints before the head: every checkpoint read was made at or below the head read next.
  const checkpoints = await loadCheckpoints({ tenantId, secret });
  const head = await readChainHead(tenantId);
  const newest = checkpoints.valid[0] ?? null;
  const answer = (
    verified: { records: number; head: ChainPoint | null; firstBroken: BrokenLink | null },
    covered: { fromSeq: number | null; toSeq: number | null; checked: number; checkpoint: CheckpointView | null },
    recordedCheckpoint: CheckpointView | null = null,
  ): EvidenceVerification => ({
    valid: verified.firstBroken === null,
    records: verified.records,
    head: verified.head,
    firstBroken: verified.firstBroken,
    // Incremental only when a checkpoint was relied on; without one the walk began at the first record.
    covered: { mode: covered.checkpoint ? 'incremental' : 'full', ...covered },
    ignoredCheckpoints: checkpoints.ignored,
    recordedCheckpoint,
  });

  let after: ChainPoint = { seq: 0, hash: GENESIS_HASH };
  let anchor: CheckpointView | null = null;
  if (incremental && newest) {
    const broken = await checkAnchor(tenantId, newest, head);
    if (broken)
      return answer(
        { records: 0, head: null, firstBroken: broken },
        { fromSeq: newest.seq, toSeq: newest.seq, checked: 0, checkpoint: newest },
      );
    after = { seq: newest.seq, hash: newest.hash };
    anchor = newest;
  }

  const walk = await walkEvidenceChain({
    tenantId,
    after,
    throughSeq: head?.seq ?? null,
    checkpoints: checkpointHashes(checkpoints.valid),
  });
  const records = (anchor?.records ?? 0) + walk.checked;
  const lastRead = walk.firstBroken ? walk.firstBroken.seq : walk.checked > 0 ? walk.last.seq : null;
  const covered = { fromSeq: lastRead === null ? null : after.seq + 1, toSeq: lastRead, checked: walk.checked, checkpoint: anchor };
  const verifiedHead = walk.last.seq > 0 ? walk.last : null;
  const firstBroken = walk.firstBroken ?? (await checkChainEnd({ tenantId, head, last: walk.last, checkpoints: checkpoints.valid }));
  if (firstBroken) return answer({ records, head: verifiedHead, firstBroken }, covered);

  let recorded: CheckpointView | null = null;
  if (options.record !== false && walk.last.seq > (newest?.seq ?? 0)) {
    recorded = await recordCheckpoint({ tenantId, secret, ...walk.last, records, source: 'request', now: options.now });
  }
  return answer({ records, head: verifiedHead, firstBroken: null }, covered, recorded);
}

/**
 * The record a checkpoint names must still be the one verified: there, with the checkpoint's
 * hash, its content hashing to it (which binds its prevHash, and so everything before it, to
 * what was verified then) and its kept payloads matching their digest.
 */
async function checkAnchor(tenantId: string, checkpoint: CheckpointView, head: ChainPoint | null): Promise<BrokenLink | null> {
  const row = await db().evidence.findUnique({ where: { tenantId_seq: { tenantId, seq: checkpoint.seq } } });
  if (!row || row.hash !== checkpoint.hash || (head && head.seq < checkpoint.seq))
    return { seq: checkpoint.seq, id: row?.id ?? '', reason: 'checkpoint_mismatch' };
  const reason = brokenLink(row, { seq: checkpoint.seq, prevHash: row.prevHash });
  return reason ? { seq: checkpoint.seq, id: row.id, reason } : null;
}
