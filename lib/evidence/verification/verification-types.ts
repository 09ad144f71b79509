/**
 * What evidence verification answers (GET /api/v1/evidence/verify and the verification runs),
 * free of the database so that pages can use the types.
 */

/**
 * Why a record does not hold its place in the chain. The first five are the chain's own checks
 * (docs/evidence.md#verification); `checkpoint_mismatch`: a verified checkpoint recorded another
 * hash for the record at its seq (or the record is gone), so the chain was rewritten at or before
 * it, hashes recomputed and all. `seq_malformed`: a record whose seq is not a whole number (SQLite
 * stores what it is given in a column of any type), written outside Toolgate.
 */
export const VERIFY_BREAK_REASONS = [
  'hash_mismatch',
  'prev_hash_mismatch',
  'seq_gap',
  'head_mismatch',
  'payload_mismatch',
  'checkpoint_mismatch',
  'seq_malformed',
] as const;
export type VerifyBreakReason = (typeof VERIFY_BREAK_REASONS)[number];

export interface BrokenLink {
  seq: number;
  /** The record's id; '' when there is no record at that seq. */
  id: string;
  reason: VerifyBreakReason;
}

/** Where a checkpoint came from: a verify request, or a full verification run. */
export const CHECKPOINT_SOURCES = ['request', 'run'] as const;
export type CheckpointSource = (typeof CHECKPOINT_SOURCES)[number];

/** A verified checkpoint: every record up to `seq` verified, the one at `seq` had `hash`. */
export interface CheckpointView {
  id: string;
  seq: number;
  hash: string;
  /** Every lane's verified record, when the tenant has lanes besides 0 (PostgreSQL); else null. */
  lanes: { lane: number; seq: number; hash: string }[] | null;
  records: number;
  verifiedAt: string;
  source: CheckpointSource;
}

export const VERIFY_MODES = ['incremental', 'full'] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

/** GET /api/v1/evidence/verify's answer. */
export interface EvidenceVerification {
  valid: boolean;
  /** Records known to verify: the checkpoint's records plus those read this time. */
  records: number;
  /** The last record that verified. */
  head: { seq: number; hash: string } | null;
  firstBroken: BrokenLink | null;
  covered: {
    /** incremental: a checkpoint was relied on; full: the walk began at the first record. */
    mode: VerifyMode;
    /** The first and last seq read and recomputed this time; null when nothing was new. */
    fromSeq: number | null;
    toSeq: number | null;
    checked: number;
    /** The checkpoint the answer relies on for every record up to its seq (incremental only). */
    checkpoint: CheckpointView | null;
  };
  /** Checkpoints whose MAC does not hold (forged, or from another TOOLGATE_SECRET): not used. */
  ignoredCheckpoints: { id: string; seq: number; reason: 'mac_mismatch' }[];
  /** The checkpoint this verification recorded, when it passed and the chain had grown. */
  recordedCheckpoint: CheckpointView | null;
}

export const RUN_STATES = ['queued', 'running', 'passed', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** A full verification run (POST /api/v1/evidence/verify/runs), as its endpoints show it. */
export interface VerificationRunView {
  id: string;
  state: RunState;
  /** Records the run verifies: seq 1 to `throughSeq`, the chain head when it was started. */
  total: number;
  throughSeq: number;
  checked: number;
  firstBroken: BrokenLink | null;
  /** Why the run failed without finding a broken link (`interrupted`), else null. */
  error: string | null;
  /** The checkpoint the run recorded when it passed. */
  checkpointId: string | null;
  requestedBy: string;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
