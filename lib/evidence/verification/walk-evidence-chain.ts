import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { db } from '../../db';
import { evidenceHash, payloadDigest, type EvidenceContent } from '../evidence-hash';
import type { BrokenLink, VerifyBreakReason } from './verification-types';

/** Records read per query: one range of the (tenantId, seq) key. */
export const WALK_PAGE = 1000;

/**
 * Why a stored record does not hold its place in the chain (the seq and the previous hash it
 * should have), or null when it does. Shared with the overview's check of the newest records.
 */
export function brokenLink(
  row: EvidenceContent & { hash: string; payload: string | null },
  expected: { seq: number; prevHash: string },
): Exclude<VerifyBreakReason, 'head_mismatch' | 'checkpoint_mismatch'> | null {
  if (row.seq !== expected.seq) return 'seq_gap';
  if (row.prevHash !== expected.prevHash) return 'prev_hash_mismatch';
  if (evidenceHash(row) !== row.hash) return 'hash_mismatch';
  if (row.payloadHash && (row.arguments !== null || row.payload !== null) && payloadDigest(row.arguments, row.payload) !== row.payloadHash)
    return 'payload_mismatch';
  return null;
}

export interface ChainPoint {
  seq: number;
  hash: string;
}

export interface WalkOptions {
  tenantId: string;
  /** The verified record the walk continues from: seq 0 and the genesis hash for the start. */
  after: ChainPoint;
  /** The last seq to read; null reads to the end. */
  throughSeq: number | null;
  /** Hashes verified checkpoints recorded, by seq: a record that differs breaks the walk. */
  checkpoints?: ReadonlyMap<number, string>;
  pageSize?: number;
  /** Stop after about this many records (a slice of a background run). */
  maxRecords?: number;
  /** After each page; answering false stops the walk (a run that lost its lease). */
  onPage?: (progress: { checked: number; last: ChainPoint }) => Promise<boolean>;
}

export interface WalkResult {
  checked: number;
  /** The last record that verified (`after` when none did). */
  last: ChainPoint;
  firstBroken: BrokenLink | null;
  /** False when the walk stopped early (maxRecords, or onPage said so) with more to read. */
  complete: boolean;
}

/**
 * Walks a tenant's chain in seq order from `after`, recomputing every hash and link, in pages.
 * What the full verification, the incremental one and background runs share; whether the walk
 * ended where the chain head says is the caller's to check.
 */
export async function walkEvidenceChain(options: WalkOptions): Promise<WalkResult> {
  const pageSize = options.pageSize ?? WALK_PAGE;
  let last = options.after;
  let checked = 0;
  for (;;) {
    const remaining = options.throughSeq === null ? pageSize : Math.min(pageSize, options.throughSeq - last.seq);
    if (remaining <= 0) return { checked, last, firstBroken: null, complete: true };
    const rows = await db().evidence.findMany({
      where: { tenantId: options.tenantId, seq: { gt: last.seq, ...(options.throughSeq === null ? {} : { lte: options.throughSeq }) } },
      orderBy: { seq: 'asc' },
      take: remaining,
    });
    if (rows.length === 0) return { checked, last, firstBroken: null, complete: true };
    for (const row of rows) {
      const reason = brokenLink(row, { seq: last.seq + 1, prevHash: last.hash });
      if (reason) return { checked, last, firstBroken: { seq: row.seq, id: row.id, reason }, complete: true };
      const recorded = options.checkpoints?.get(row.seq);
      if (recorded !== undefined && recorded !== row.hash)
        return { checked, last, firstBroken: { seq: row.seq, id: row.id, reason: 'checkpoint_mismatch' }, complete: true };
      last = { seq: row.seq, hash: row.hash };
      checked++;
    }
    // At the end of a bounded walk: done, whatever a slice's budget says.
    if (options.throughSeq !== null && last.seq >= options.throughSeq) return { checked, last, firstBroken: null, complete: true };
    if (options.onPage && !(await options.onPage({ checked, last }))) return { checked, last, firstBroken: null, complete: false };
    if (options.maxRecords !== undefined && checked >= options.maxRecords) return { checked, last, firstBroken: null, complete: false };
    // A long walk shares the thread with requests (better-sqlite3 reads block it while they run).
    await yieldToEventLoop();
  }
}

/** The tenant's chain head, or null for a tenant with no head row. Read before the records. */
export async function readChainHead(tenantId: string): Promise<ChainPoint | null> {
  const head = await db().evidenceChainHead.findUnique({ where: { tenantId } });
  return head ? { seq: head.seq, hash: head.hash } : null;
}

/**
 * Whether a walk that went through `head.seq` ended where the chain does. The head was read
 * before the walk, so records committed since are past it and not part of this check; records
 * past a head that has not moved were put there by something other than a writer (which moves
 * the head in the same transaction). A verified checkpoint past the last record means records
 * were cut off the end after it was made.
 */
export async function checkChainEnd(options: {
  tenantId: string;
  head: ChainPoint | null;
  last: ChainPoint;
  checkpoints?: readonly { seq: number }[];
}): Promise<BrokenLink | null> {
  const { tenantId, head, last } = options;
  if (head && (last.seq !== head.seq || last.hash !== head.hash)) return { seq: head.seq, id: '', reason: 'head_mismatch' };
  if (head) {
    const beyond = await db().evidence.findFirst({
      where: { tenantId, seq: { gt: head.seq } },
      orderBy: { seq: 'asc' },
      select: { id: true, seq: true },
    });
    if (beyond) {
      const now = await readChainHead(tenantId);
      if (now && now.seq === head.seq && now.hash === head.hash) return { seq: beyond.seq, id: beyond.id, reason: 'head_mismatch' };
    }
  }
  const cut = options.checkpoints?.filter((c) => c.seq > last.seq).sort((a, b) => a.seq - b.seq)[0];
  if (cut) return { seq: cut.seq, id: '', reason: 'checkpoint_mismatch' };
  return null;
}
