import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { db, dbProvider } from '../../db';
import {
  evidenceHash,
  GENESIS_HASH,
  linksTo,
  payloadDigest,
  PREFIX_LINK_MAX_SEQS,
  prevHashIsWhole,
  type EvidenceContent,
} from '../evidence-hash';
import type { BrokenLink, VerifyBreakReason } from './verification-types';
import { hashHex } from '../stored-hashes';
import { readEvidencePage } from './read-evidence-page';
import { tenantEvidence } from '../tenant-key';

/** Records read per query: one range of the (tenantKey, seq) key. */
export const WALK_PAGE = 1000;

export interface ChainPoint {
  seq: number;
  hash: string;
}

/** Each lane's newest record (lib/evidence/evidence-lanes.ts); a lane not in it has none yet. */
export type LanePoints = ReadonlyMap<number, ChainPoint>;

/**
 * Where a walk stands: the newest record verified, in seq order across lanes, and every lane's
 * newest. A tenant that only ever had lane 0 has `lanes` of that one point, which is `last`.
 */
export interface ChainPosition {
  last: ChainPoint;
  lanes: LanePoints;
}

export const CHAIN_START: ChainPosition = { last: { seq: 0, hash: GENESIS_HASH }, lanes: new Map() };

/**
 * Why a stored record does not hold its place in its lane's chain, or null when it does.
 * `prevHash` is the whole hash of the lane's previous record (the genesis hash for its first) and
 * `afterSeq` the seq of the record read before it in the tenant's order, any lane: a link that
 * does not hold across a gap in seq is a missing record. Gaps with links that hold are seqs
 * handed out to commits that rolled back, or other lanes' records (PostgreSQL).
 */
export function brokenLink(
  row: EvidenceContent & { hash: string; payload: string | null },
  expected: { prevHash: string; afterSeq: number },
): Exclude<VerifyBreakReason, 'head_mismatch' | 'checkpoint_mismatch' | 'seq_malformed'> | null {
  if (!linksTo(row.prevHash, expected.prevHash)) return row.seq !== expected.afterSeq + 1 ? 'seq_gap' : 'prev_hash_mismatch';
  if (row.seq <= expected.afterSeq) return 'seq_gap';
  // A stored prefix names the expected hash (just checked); the hash covers the whole of it.
  if (storedHashOf(prevHashIsWhole(row.prevHash) ? row : { ...row, prevHash: expected.prevHash }) !== row.hash) return 'hash_mismatch';
  if (row.payloadHash && (row.arguments !== null || row.payload !== null) && payloadDigest(row.arguments, row.payload) !== row.payloadHash)
    return 'payload_mismatch';
  // A record is written with a digest whenever it keeps anything (chain-records.ts): a payload
  // on one without was put there afterwards. (Arguments too, but rows from before the digest
  // existed kept arguments without one.)
  if (!row.payloadHash && row.payload !== null) return 'payload_mismatch';
  return null;
}

/**
 * A stored record's hash, or null when its content cannot be hashed: a writer never stores an
 * invalid date or a number that is not finite (evidenceHash throws for both), so such a record
 * was edited in the database, and verification reports it where it is rather than failing.
 */
function storedHashOf(row: EvidenceContent): string | null {
  try {
    return evidenceHash(row);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) return null;
    throw error;
  }
}

/**
 * The whole hash a stored record links to, for a check that starts at the record rather than
 * walking to it: its stored prevHash when whole, else the hash of its lane's record before it,
 * which a writer stores only a prefix for when that record is at most PREFIX_LINK_MAX_SEQS seqs
 * back (so the lookup reads at most that many index entries, past other lanes' records). The
 * genesis hash when the lane has no record before it in reach: its first record, or one whose
 * predecessor is gone (the prefix then does not match, and brokenLink says so).
 */
export async function prevHashOf(tenantId: string, row: { seq: number; lane: number; prevHash: string }): Promise<string> {
  if (prevHashIsWhole(row.prevHash)) return row.prevHash;
  const before = await db().evidence.findFirst({
    where: { ...(await tenantEvidence(tenantId)), lane: row.lane, seq: { lt: row.seq, gte: row.seq - PREFIX_LINK_MAX_SEQS } },
    orderBy: { seq: 'desc' },
    select: { hash: true },
  });
  return before ? hashHex(before.hash) : GENESIS_HASH;
}

export interface WalkOptions {
  tenantId: string;
  /** The verified position the walk continues from: CHAIN_START for the first record. */
  after: ChainPosition;
  /** The last seq to read; null reads to the end. */
  throughSeq: number | null;
  /**
   * The lane heads the walk is bounded by (readChainCut): a record in a lane without a head, or
   * past its lane's head, was not put there by a writer (which moves the head as it writes).
   */
  heads?: LanePoints;
  /** Hashes verified checkpoints recorded, by seq: a record that differs breaks the walk. */
  checkpoints?: ReadonlyMap<number, string>;
  pageSize?: number;
  /** Stop after about this many records (a slice of a background run). */
  maxRecords?: number;
  /** Aborted when the request that asked went away: the walk throws before its next page. */
  signal?: AbortSignal;
  /** After each page; answering false stops the walk (a run that lost its lease). */
  onPage?: (progress: { checked: number; position: ChainPosition }) => Promise<boolean>;
}

export interface WalkResult {
  checked: number;
  /** Where the last record that verified left the walk (`after` when none did). */
  position: ChainPosition;
  firstBroken: BrokenLink | null;
  /** False when the walk stopped early (maxRecords, or onPage said so) with more to read. */
  complete: boolean;
  /** The checkpoint seqs whose record the walk read (and found unchanged). */
  checkpointsSeen: Set<number>;
}

/**
 * Walks a tenant's evidence in seq order from `after`, every lane in one pass, recomputing
 * every hash and each record's link to its lane's previous one, in pages. What the full
 * verification, the incremental one and background runs share; whether each lane ended where
 * its head says is the caller's to check (checkChainEnd).
 */
export async function walkEvidenceChain(options: WalkOptions): Promise<WalkResult> {
  const pageSize = options.pageSize ?? WALK_PAGE;
  let last = options.after.last;
  const lanes = new Map(options.after.lanes);
  const checkpointsSeen = new Set<number>();
  let checked = 0;
  const result = (firstBroken: BrokenLink | null, complete: boolean): WalkResult => ({
    checked,
    position: { last, lanes: new Map(lanes) },
    firstBroken,
    complete,
    checkpointsSeen,
  });
  for (;;) {
    options.signal?.throwIfAborted();
    if (options.throughSeq !== null && last.seq >= options.throughSeq) return result(null, true);
    const rows = await readEvidencePage(options.tenantId, last.seq, options.throughSeq, pageSize);
    if (rows.length === 0) return result(null, true);
    for (const row of rows) {
      const head = options.heads?.get(row.lane);
      if (options.heads && (!head || row.seq > head.seq)) return result({ seq: row.seq, id: row.id, reason: 'head_mismatch' }, true);
      const reason = brokenLink(row, { prevHash: lanes.get(row.lane)?.hash ?? GENESIS_HASH, afterSeq: last.seq });
      if (reason) return result({ seq: row.seq, id: row.id, reason }, true);
      const recorded = options.checkpoints?.get(row.seq);
      if (recorded !== undefined) {
        if (recorded !== row.hash) return result({ seq: row.seq, id: row.id, reason: 'checkpoint_mismatch' }, true);
        checkpointsSeen.add(row.seq);
      }
      last = { seq: row.seq, hash: row.hash };
      lanes.set(row.lane, last);
      checked++;
    }
    // At the end of a bounded walk, or of the records: done, whatever a slice's budget says.
    if (rows.length < pageSize || (options.throughSeq !== null && last.seq >= options.throughSeq)) return result(null, true);
    if (options.onPage && !(await options.onPage({ checked, position: { last, lanes: new Map(lanes) } }))) return result(null, false);
    if (options.maxRecords !== undefined && checked >= options.maxRecords) return result(null, false);
    // A long walk shares the thread with requests (better-sqlite3 reads block it while they run).
    await yieldToEventLoop();
  }
}

/**
 * What a walk may verify up to without racing writers: `throughSeq`, and every lane's head.
 * SQLite has one writer, and its one lane's head is the cut. On PostgreSQL commits of one tenant
 * run side by side and take seqs before they commit, so a record below the newest head may still
 * be on its way: the cut is the last seq handed out when the read began, and every lane's head is
 * read FOR SHARE, which waits for whoever holds the lane to commit. Lanes are committed before
 * any record is in one, so every record up to the cut is then either committed or never will be.
 * Null for a tenant with no lanes. Before any seq is handed out, the cut is the newest head as
 * the read began.
 *
 * Each head is read in a statement of its own, outside a transaction, so its share lock is let
 * go as soon as it is read: held until every lane had been read, while the read waited for the
 * next lane's writer, it made writers that found the lane taken (they skip locked lanes) add
 * lanes of their own, and the dashboard's reads every few seconds grew a busy tenant's lanes to
 * MAX_LANES.
 */
export async function readChainCut(tenantId: string): Promise<{ throughSeq: number; heads: LanePoints } | null> {
  const rows =
    dbProvider() === 'postgresql'
      ? await readHeadsAfterWriters(tenantId)
      : { handed: null, heads: await db().evidenceChainHead.findMany({ where: { tenantId }, orderBy: { lane: 'asc' } }) };
  if (rows.heads.length === 0) return null;
  const heads = new Map(rows.heads.map((h) => [Number(h.lane), { seq: Number(h.seq), hash: h.hash }]));
  const newest = Math.max(...[...heads.values()].map((h) => h.seq));
  return { throughSeq: rows.handed ?? newest, heads };
}

/**
 * Where a full verification run started now verifies up to (its target): the cut's seq, the
 * newest lane head's hash (a single-lane target's, as runs stored it before lanes) and every
 * lane's head, encoded as runs store them. A chain without head rows (written before heads
 * existed) ends at its newest record.
 */
export async function readRunTarget(tenantId: string): Promise<{ seq: number; hash: string; lanes: string | null }> {
  const cut = await readChainCut(tenantId);
  if (cut) {
    let newest: ChainPoint = { seq: 0, hash: GENESIS_HASH };
    for (const head of cut.heads.values()) if (head.seq > newest.seq) newest = head;
    const last = { seq: cut.throughSeq, hash: newest.hash };
    return { ...last, lanes: encodeLanes({ last, lanes: cut.heads }) };
  }
  const row = await db().evidence.findFirst({
    where: await tenantEvidence(tenantId),
    orderBy: { seq: 'desc' },
    select: { seq: true, hash: true },
  });
  return { seq: row?.seq ?? 0, hash: row ? hashHex(row.hash) : GENESIS_HASH, lanes: null };
}

async function readHeadsAfterWriters(tenantId: string): Promise<{ handed: number; heads: { lane: number; seq: number; hash: string }[] }> {
  // The lanes are read after the seq: a lane added meanwhile holds no record up to it, and its
  // records would look like records past their lane's head if its head were read.
  const handed = await db().$queryRaw<{ seq: number | null }[]>`
    SELECT COALESCE((SELECT "seq" FROM "EvidenceSequence" WHERE "tenantId" = ${tenantId}),
      (SELECT MAX("seq") FROM "EvidenceChainHead" WHERE "tenantId" = ${tenantId}), 0) AS "seq"`;
  const lanes = await db().$queryRaw<{ lane: number }[]>`
    SELECT "lane" FROM "EvidenceChainHead" WHERE "tenantId" = ${tenantId} ORDER BY "lane"`;
  const heads: { lane: number; seq: number; hash: string }[] = [];
  for (const { lane } of lanes) {
    const [head] = await db().$queryRaw<{ lane: number; seq: number; hash: string }[]>`
      SELECT "lane", "seq", "hash" FROM "EvidenceChainHead" WHERE "tenantId" = ${tenantId} AND "lane" = ${lane} FOR SHARE`;
    if (head) heads.push(head);
  }
  return { handed: Number(handed[0]?.seq ?? 0), heads };
}

/**
 * Whether a walk that went through `throughSeq` ended where every lane does. A lane whose head
 * is past the cut cannot be checked yet (its records past the cut were not read). Records past
 * the newest head are looked for too: a writer moves its lane's head in the transaction that
 * adds the record, so one that is still past its lane's head when the heads are read again was
 * put there by something else. Every checkpointed record after where the walk began must have
 * been read: one that was not was deleted, or moved, after it was verified.
 */
export async function checkChainEnd(options: {
  tenantId: string;
  cut: { throughSeq: number; heads: LanePoints } | null;
  /** Where the walk began and where it ended. */
  from: ChainPosition;
  walk: Pick<WalkResult, 'position' | 'checkpointsSeen'>;
  checkpoints?: ReadonlyMap<number, string>;
}): Promise<BrokenLink | null> {
  const { tenantId, cut, walk } = options;
  const malformed = await findMalformedSeq(tenantId);
  if (malformed) return malformed;
  if (cut) {
    for (const [lane, head] of cut.heads) {
      if (head.seq > cut.throughSeq) continue;
      const reached = walk.position.lanes.get(lane) ?? { seq: 0, hash: GENESIS_HASH };
      if (reached.seq !== head.seq || reached.hash !== head.hash) return { seq: head.seq, id: '', reason: 'head_mismatch' };
    }
    const newest = Math.max(cut.throughSeq, ...[...cut.heads.values()].map((h) => h.seq));
    const beyond = await db().evidence.findFirst({
      where: { ...(await tenantEvidence(tenantId)), seq: { gt: newest } },
      orderBy: { seq: 'asc' },
      select: { id: true, seq: true, lane: true },
    });
    if (beyond) {
      const now = await db().evidenceChainHead.findUnique({ where: { tenantId_lane: { tenantId, lane: beyond.lane } } });
      if (!now || now.seq < beyond.seq) return { seq: beyond.seq, id: beyond.id, reason: 'head_mismatch' };
    }
  }
  const unread = [...(options.checkpoints?.keys() ?? [])]
    .filter((seq) => seq > options.from.last.seq && !walk.checkpointsSeen.has(seq))
    .sort((a, b) => a - b)[0];
  if (unread !== undefined) return { seq: unread, id: '', reason: 'checkpoint_mismatch' };
  return null;
}

/** A position's lanes as stored with checkpoints and run cursors: null when lane 0 is the only one and is `last`. */
export function encodeLanes(position: ChainPosition): string | null {
  const lanes = [...position.lanes].sort((a, b) => a[0] - b[0]);
  const only = lanes.length === 1 ? lanes[0] : undefined;
  if (lanes.length === 0 || (only && only[0] === 0 && only[1].seq === position.last.seq && only[1].hash === position.last.hash))
    return null;
  return JSON.stringify(lanes.map(([lane, p]) => [lane, p.seq, p.hash]));
}

/** The position a stored point and its lanes (encodeLanes) stand for; null lanes is lane 0 alone. */
export function decodePosition(last: ChainPoint, lanes: string | null): ChainPosition {
  if (lanes === null) return { last, lanes: last.seq > 0 ? new Map([[0, last]]) : new Map() };
  const parsed = JSON.parse(lanes) as [number, number, string][];
  return { last, lanes: new Map(parsed.map(([lane, seq, hash]) => [lane, { seq, hash }])) };
}

/**
 * A record of the tenant whose seq is text or bytes: SQLite keeps whatever a hand-written row
 * puts in an INTEGER column. Prisma cannot read such a row (every query that met it failed, and
 * verification answered 503 as if the database were down), and it sorts after every number, so a
 * walk by seq never reached it and a run passed with it in the table. Text and bytes sort after
 * all numbers in the (tenantKey, seq) index, so one index seek finds them. PostgreSQL's column
 * cannot hold one.
 */
export async function findMalformedSeq(tenantId: string): Promise<BrokenLink | null> {
  if (dbProvider() !== 'sqlite') return null;
  const { tenantKey } = await tenantEvidence(tenantId);
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `SELECT "id" FROM "Evidence" WHERE "tenantKey" = ? AND "seq" >= '' LIMIT 1`,
    tenantKey,
  );
  const row = rows[0];
  return row ? { seq: 0, id: String(row.id), reason: 'seq_malformed' } : null;
}
