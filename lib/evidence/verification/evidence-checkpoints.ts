import { db } from '../../db';
import { log } from '../../log';
import { checkpointMac, checkpointMacHolds } from './verification-mac';
import type { CheckpointSource, CheckpointView } from './verification-types';
import { decodePosition, encodeLanes, type ChainPosition } from './walk-evidence-chain';

/** Valid checkpoints kept per tenant once a newer one is recorded; older ones are pruned. */
const KEEP = 5;
/** Checkpoints read per verification, newest seq first. */
const READ = 50;

export interface TenantCheckpoints {
  /** Checkpoints whose MAC holds, newest seq first. */
  valid: CheckpointView[];
  /** Checkpoints whose MAC does not: never relied on, reported with every verification. */
  ignored: { id: string; seq: number; reason: 'mac_mismatch' }[];
}

interface CheckpointRow {
  id: string;
  seq: number;
  hash: string;
  lanes: string | null;
  records: number;
  verifiedAt: Date;
  source: string;
}

function view(row: CheckpointRow): CheckpointView {
  return {
    id: row.id,
    seq: row.seq,
    hash: row.hash,
    lanes:
      row.lanes === null
        ? null
        : [...decodePosition({ seq: row.seq, hash: row.hash }, row.lanes).lanes].map(([lane, p]) => ({ lane, ...p })),
    records: row.records,
    verifiedAt: row.verifiedAt.toISOString(),
    source: row.source as CheckpointSource,
  };
}

/** The tenant's checkpoints, sorted into those verification may rely on and those it must not. */
export async function loadCheckpoints(options: { tenantId: string; secret: string }): Promise<TenantCheckpoints> {
  const rows = await db().evidenceCheckpoint.findMany({
    where: { tenantId: options.tenantId },
    orderBy: [{ seq: 'desc' }, { verifiedAt: 'desc' }],
    take: READ,
  });
  const out: TenantCheckpoints = { valid: [], ignored: [] };
  for (const row of rows) {
    if (checkpointMacHolds(options.secret, row)) out.valid.push(view(row));
    else out.ignored.push({ id: row.id, seq: row.seq, reason: 'mac_mismatch' });
  }
  if (out.ignored.length > 0)
    log.warn('evidence checkpoints ignored: their MAC does not hold', { tenant_id: options.tenantId, ids: out.ignored.map((c) => c.id) });
  return out;
}

/** Where the walk stood when the checkpoint was recorded: its newest record and every lane's. */
export function checkpointPosition(checkpoint: CheckpointView): ChainPosition {
  const last = { seq: checkpoint.seq, hash: checkpoint.hash };
  if (!checkpoint.lanes) return decodePosition(last, null);
  return { last, lanes: new Map(checkpoint.lanes.map((l) => [l.lane, { seq: l.seq, hash: l.hash }])) };
}

/** The seq → hash map a walk checks records against: every record the checkpoints name. */
export function checkpointHashes(checkpoints: CheckpointView[]): Map<number, string> {
  const hashes = new Map<number, string>();
  for (const c of checkpoints) {
    hashes.set(c.seq, c.hash);
    for (const point of checkpointPosition(c).lanes.values()) hashes.set(point.seq, point.hash);
  }
  return hashes;
}

/**
 * Records that every record up to the position's newest verified (every lane up to its point), then prunes the tenant's older valid
 * checkpoints beyond the newest few. Rows whose MAC fails are left as they are: they are
 * evidence of tampering, reported by every verification until someone looks.
 */
export async function recordCheckpoint(options: {
  tenantId: string;
  secret: string;
  position: ChainPosition;
  records: number;
  source: CheckpointSource;
  now?: Date;
}): Promise<CheckpointView> {
  const fields = {
    tenantId: options.tenantId,
    seq: options.position.last.seq,
    hash: options.position.last.hash,
    lanes: encodeLanes(options.position),
    records: options.records,
    verifiedAt: options.now ?? new Date(),
    source: options.source,
  };
  const row = await db().evidenceCheckpoint.create({ data: { ...fields, mac: checkpointMac(options.secret, fields) } });
  const { valid } = await loadCheckpoints({ tenantId: options.tenantId, secret: options.secret });
  const stale = valid.slice(KEEP).map((c) => c.id);
  if (stale.length > 0) await db().evidenceCheckpoint.deleteMany({ where: { tenantId: options.tenantId, id: { in: stale } } });
  return view(row);
}
