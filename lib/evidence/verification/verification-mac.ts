import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * MACs over what verification relies on later: checkpoints (every record up to a seq verified)
 * and a run's resume point. HMAC-SHA256 under a key derived from the instance secret, as the
 * MCP secret box and webhook secrets derive theirs, so someone who can write the database but
 * does not hold TOOLGATE_SECRET cannot make a row that verification trusts. Every field is one
 * line of the message, after a purpose line, so a MAC of one kind never passes for another.
 * Rotating TOOLGATE_SECRET makes every stored MAC fail: verification then walks from the start.
 */
function key(instanceSecret: string): Buffer {
  return createHmac('sha256', instanceSecret).update('toolgate-evidence-verification\nv1').digest();
}

function mac(instanceSecret: string, purpose: string, fields: (string | number)[]): string {
  return createHmac('sha256', key(instanceSecret))
    .update([purpose, ...fields.map(String)].join('\n'))
    .digest('hex');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface CheckpointFields {
  tenantId: string;
  seq: number;
  hash: string;
  /** Lanes besides 0 (evidence-checkpoints.ts); a line of the message only when set, so older MACs hold. */
  lanes?: string | null;
  records: number;
  verifiedAt: Date;
  source: string;
}

export function checkpointMac(instanceSecret: string, c: CheckpointFields): string {
  const fields = [c.tenantId, c.seq, c.hash, c.records, c.verifiedAt.toISOString(), c.source];
  return mac(instanceSecret, 'checkpoint', c.lanes ? [...fields, c.lanes] : fields);
}

export function checkpointMacHolds(instanceSecret: string, c: CheckpointFields & { mac: string }): boolean {
  return same(checkpointMac(instanceSecret, c), c.mac);
}

/** A run's target and where it stopped: what a resumed run continues from. */
export interface CursorFields {
  runId: string;
  tenantId: string;
  throughSeq: number;
  throughHash: string;
  cursorSeq: number;
  cursorHash: string;
  /** Lanes besides 0, at the target and at the cursor; lines of the message only when set. */
  throughLanes?: string | null;
  cursorLanes?: string | null;
  checked: number;
}

export function cursorMac(instanceSecret: string, c: CursorFields): string {
  const fields = [c.runId, c.tenantId, c.throughSeq, c.throughHash, c.cursorSeq, c.cursorHash, c.checked];
  if (c.throughLanes || c.cursorLanes) fields.push(c.throughLanes ?? '', c.cursorLanes ?? '');
  return mac(instanceSecret, 'run-cursor', fields);
}

export function cursorMacHolds(instanceSecret: string, c: CursorFields & { cursorMac: string }): boolean {
  return same(cursorMac(instanceSecret, c), c.cursorMac);
}
