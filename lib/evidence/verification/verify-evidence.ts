import { db } from '../../db';
import { env } from '../../env';
import { AppError } from '../../errors';
import { getInstanceSecret } from '../../auth/instance-secret';
import { checkpointHashes, checkpointPosition, loadCheckpoints, recordCheckpoint } from './evidence-checkpoints';
import {
  brokenLink,
  prevHashOf,
  CHAIN_START,
  checkChainEnd,
  findMalformedSeq,
  readChainCut,
  walkEvidenceChain,
  type ChainPoint,
  type ChainPosition,
} from './walk-evidence-chain';
import type { BrokenLink, CheckpointView, EvidenceVerification, VerifyMode } from './verification-types';
import { readEvidencePage } from './read-evidence-page';
import { tenantEvidence } from '../tenant-key';

/**
 * GET /api/v1/evidence/verify. `incremental` (the default) relies on the newest checkpoint whose
 * MAC holds: it checks that the records it names (the newest, and every lane's) are still the
 * ones verified (same hash, content still hashing to it), then walks only the records after it,
 * so a verify after the first full pass reads what is new. `full` walks from the first record.
 * Either way every record read is recomputed and linked to its lane's previous one, valid
 * checkpoints inside the range are compared with the records at their seq, and every lane must
 * end at its head (up to the cut, readChainCut). A verification that passes records a checkpoint
 * at the last record (when the evidence grew since the newest one).
 *
 * What the incremental answer does not re-read, records up to the checkpoint, is what a full
 * verification run (./verification-runs.ts) is for; the answer names the checkpoint it relied on.
 */
export async function verifyEvidence(options: {
  tenantId: string;
  mode?: VerifyMode;
  /** Record a checkpoint when it passes (default true). */
  record?: boolean;
  /** The request's: when it aborts (the client went away) the walk stops and nothing is recorded. */
  signal?: AbortSignal;
  /** The most records read (seqs after the checkpoint relied on); default TOOLGATE_VERIFY_MAX_RECORDS, 0 none. */
  maxRecords?: number;
  now?: Date;
}): Promise<EvidenceVerification> {
  const { tenantId } = options;
  const incremental = (options.mode ?? 'incremental') === 'incremental';
  const secret = await getInstanceSecret();
  // Checkpoints before the head: every checkpoint read was made at or below the head read next.
  const checkpoints = await loadCheckpoints({ tenantId, secret });
  const cut = await readChainCut(tenantId);
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

  // Before anything reads records through Prisma, which cannot read such a row.
  const malformed = await findMalformedSeq(tenantId);
  if (malformed)
    return answer({ records: 0, head: null, firstBroken: malformed }, { fromSeq: null, toSeq: null, checked: 0, checkpoint: null });

  let after: ChainPosition = CHAIN_START;
  let anchor: CheckpointView | null = null;
  if (incremental && newest) {
    const broken = await checkAnchor(tenantId, newest, cut);
    // Nothing was walked: the range is empty, as documented, whichever of the checkpoint's
    // records (its newest, or another lane's, below it) no longer holds.
    if (broken)
      return answer({ records: 0, head: null, firstBroken: broken }, { fromSeq: null, toSeq: null, checked: 0, checkpoint: newest });
    after = checkpointPosition(newest);
    anchor = newest;
  }

  await refuseLongWalk(tenantId, after, cut, options.maxRecords ?? env().TOOLGATE_VERIFY_MAX_RECORDS);

  const points = checkpointHashes(checkpoints.valid);
  const walk = await walkEvidenceChain({
    tenantId,
    after,
    throughSeq: cut?.throughSeq ?? null,
    heads: cut?.heads,
    checkpoints: points,
    signal: options.signal,
  });
  const last = walk.position.last;
  const records = (anchor?.records ?? 0) + walk.checked;
  const lastRead = walk.firstBroken ? walk.firstBroken.seq : walk.checked > 0 ? last.seq : null;
  const covered = { fromSeq: lastRead === null ? null : after.last.seq + 1, toSeq: lastRead, checked: walk.checked, checkpoint: anchor };
  const verifiedHead = last.seq > 0 ? last : null;
  const firstBroken = walk.firstBroken ?? (await checkChainEnd({ tenantId, cut, from: after, walk, checkpoints: points }));
  if (firstBroken) return answer({ records, head: verifiedHead, firstBroken }, covered);

  let recorded: CheckpointView | null = null;
  if (options.record !== false && last.seq > (newest?.seq ?? 0)) {
    recorded = await recordCheckpoint({ tenantId, secret, position: walk.position, records, source: 'request', now: options.now });
  }
  return answer({ records, head: verifiedHead, firstBroken: null }, covered, recorded);
}

/**
 * A walk longer than `max` records is refused before it reads any: at about 55,000 records a
 * second, a first verify of ten million would hold the request (and a connection) for minutes,
 * and one admin could start several. The distance in seq counts seqs that rolled back too, so
 * it is at most the records there are. A verification run walks any length in the background
 * and its checkpoint brings the next verify back under the bound.
 */
async function refuseLongWalk(tenantId: string, after: ChainPosition, cut: { throughSeq: number } | null, max: number): Promise<void> {
  if (max === 0) return;
  const through =
    cut?.throughSeq ??
    (await db().evidence.findFirst({ where: await tenantEvidence(tenantId), orderBy: { seq: 'desc' }, select: { seq: true } }))?.seq ??
    0;
  const records = through - after.last.seq;
  if (records <= max) return;
  throw new AppError(
    'verification_too_large',
    `Verifying would read ${records} records (seq ${after.last.seq + 1} to ${through}${after.last.seq > 0 ? ', after the newest checkpoint' : ''}), more than one request reads (${max}, TOOLGATE_VERIFY_MAX_RECORDS). Start a verification run (POST /api/v1/evidence/verify/runs): it reads them in the background, and once it passes, its checkpoint lets a verify read only what is newer.`,
    { records, max, fromSeq: after.last.seq + 1, throughSeq: through },
  );
}

/**
 * The records a checkpoint names (its newest and every lane's) must still be the ones verified:
 * there, in their lane, with the checkpoint's hash, their content hashing to it (which binds
 * their prevHash, and so everything before them in the lane, to what was verified then; a
 * record that stores only its prevHash's prefix is hashed with its lane's previous record's
 * hash, prevHashOf) and
 * their kept payloads matching their digest. A lane's head behind its checkpoint means records
 * were cut off its end.
 */
export async function checkAnchor(
  tenantId: string,
  checkpoint: CheckpointView,
  cut: { heads: ReadonlyMap<number, ChainPoint> } | null,
): Promise<BrokenLink | null> {
  const position = checkpointPosition(checkpoint);
  const points = [...position.lanes].sort((a, b) => b[1].seq - a[1].seq);
  for (const [lane, point] of points) {
    // Read as the walk reads (a record edited to hold what a writer never stores is reported, not thrown on).
    const [row] = await readEvidencePage(tenantId, point.seq - 1, point.seq, 1);
    const head = cut?.heads.get(lane);
    if (!row || row.lane !== lane || row.hash !== point.hash || !head || head.seq < point.seq)
      return { seq: point.seq, id: row?.id ?? '', reason: 'checkpoint_mismatch' };
    const reason = brokenLink(row, { prevHash: await prevHashOf(tenantId, row), afterSeq: row.seq - 1 });
    if (reason) return { seq: point.seq, id: row.id, reason };
  }
  return null;
}
