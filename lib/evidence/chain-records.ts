import { timeOrderedId } from './time-ordered-id';
import {
  evidenceHash,
  GENESIS_HASH,
  payloadDigest,
  PREFIX_LINK_MAX_SEQS,
  STORED_PREV_HASH_CHARS,
  type EvidenceContent,
} from './evidence-hash';
import type { EvidenceInput } from './evidence-input';
import { isWellFormedText, toWellFormedText } from '../stored-text';

/**
 * A row as inserted: the hashed content, plus its id, hash, the unhashed raw `payload` and the
 * tenant's key for the indexes (./tenant-key.ts).
 */
export type EvidenceRecord = EvidenceContent & { id: string; hash: string; payload: string | null; tenantKey: number };

export interface ViolationRecord {
  id: string;
  tenantId: string;
  evidenceId: string;
  code: string;
  type: string;
  tool: string;
  apiKeyId: string | null;
  path: string | null;
  decision: string;
  createdAt: Date;
}

/**
 * The lane of a tenant's evidence a commit holds: its newest record's seq and hash, where the
 * commit's records link. `nextSeq` and `createdAt` are what EvidenceSequence handed out on
 * PostgreSQL (seqs are tenant-wide there, so a lane's are not consecutive); without them the
 * records take the seqs after the head's (SQLite's single lane) and the batch's time.
 */
export interface LaneHead {
  lane: number;
  seq: number;
  hash: string;
  nextSeq?: number;
  createdAt?: Date;
  /** The tenant's key (./tenant-key.ts), which every writer reads with the head; 0 (no tenant's) only in tests of the chain alone. */
  tenantKey?: number;
}

/** Chains the inputs onto the tenants' lane heads (moving them) and returns the rows to insert. */
export function chainRecords(inputs: EvidenceInput[], heads: Map<string, LaneHead>, createdAt: Date) {
  const rows: EvidenceRecord[] = [];
  const violations: ViolationRecord[] = [];
  // The ids inputs brought (recordId), made only when one does: two in one batch would fail the commit.
  let given: Set<string> | undefined;
  for (const input of inputs) {
    let head = heads.get(input.tenantId);
    if (!head) heads.set(input.tenantId, (head = { lane: 0, seq: 0, hash: GENESIS_HASH }));
    const at = head.createdAt ?? createdAt;
    const id = input.recordId !== undefined && !given?.has(input.recordId) ? input.recordId : timeOrderedId(at.getTime());
    if (id === input.recordId) (given ??= new Set()).add(id);
    // The row is made whole, in one shape, before hashing: spreading the content into a row
    // with id and hash added showed up as map migrations in the writer thread.
    const row = evidenceRow(input, head, at, id);
    row.hash = evidenceHash(row);
    // Hashed with the whole previous hash, stored with its prefix when the lane's previous record
    // is near (STORED_PREV_HASH_CHARS, PREFIX_LINK_MAX_SEQS).
    if (row.seq - head.seq <= PREFIX_LINK_MAX_SEQS) row.prevHash = row.prevHash.slice(0, STORED_PREV_HASH_CHARS);
    head.seq = row.seq;
    head.hash = row.hash;
    if (head.nextSeq !== undefined) head.nextSeq = row.seq + 1;
    rows.push(row);
    for (const issue of input.errors) {
      violations.push({
        id: timeOrderedId(at.getTime()),
        tenantId: input.tenantId,
        evidenceId: id,
        code: wellFormed(issue.code),
        type: wellFormed(issue.type),
        tool: row.tool,
        apiKeyId: input.apiKeyId ?? null,
        path: maybeWellFormed(issue.path),
        decision: input.decision,
        createdAt: at,
      });
    }
  }
  return { rows, violations };
}

/**
 * The text as it is stored and hashed, the same on both databases: a lone surrogate (JSON
 * accepts "\ud800", so an agent can send one) and NUL (which PostgreSQL text cannot hold) become
 * U+FFFD. Before, the hash saw the lone surrogate's escape while SQLite stored its raw bytes and
 * PostgreSQL U+FFFD, so the record failed verification as if edited; a NUL failed the commit on
 * PostgreSQL (a 503 for the agent).
 */
export function wellFormed(text: string): string {
  const formed = isWellFormedText(text) ? text : toWellFormedText(text);
  return formed.includes('\0') ? formed.replaceAll('\0', '\ufffd') : formed;
}

const maybeWellFormed = (text: string | null | undefined): string | null => (text === null || text === undefined ? null : wellFormed(text));

/** The row for `input`, its hash still to be set (evidenceHash leaves out id and hash). */
function evidenceRow(input: EvidenceInput, head: LaneHead, createdAt: Date, id: string): EvidenceRecord {
  const args = maybeWellFormed(input.arguments);
  const payload = maybeWellFormed(input.payload);
  return {
    id,
    hash: '',
    tenantId: input.tenantId,
    seq: head.nextSeq ?? head.seq + 1,
    lane: head.lane,
    prevHash: head.hash,
    createdAt,
    kind: input.kind,
    requestId: wellFormed(input.requestId),
    traceId: wellFormed(input.traceId),
    callId: wellFormed(input.callId),
    w3cTraceparent: maybeWellFormed(input.w3cTraceparent),
    apiKeyId: input.apiKeyId ?? null,
    actorUserId: maybeWellFormed(input.actorUserId),
    tool: wellFormed(input.tool),
    contractVersion: maybeWellFormed(input.contractVersion),
    contractHash: input.contractHash ?? null,
    argsHash: input.argsHash,
    idempotencyKey: maybeWellFormed(input.idempotencyKey),
    arguments: args,
    decision: input.decision,
    valid: input.valid,
    errors: JSON.stringify(input.errors),
    warnings: JSON.stringify(input.warnings),
    // Rounded so that both databases store exactly the value that was hashed.
    durationMs: Math.round(input.durationMs * 1000) / 1000,
    policyId: maybeWellFormed(input.policyId),
    policyVersion: maybeWellFormed(input.policyVersion),
    policyRule: maybeWellFormed(input.policyRule),
    policy: maybeWellFormed(input.policy),
    shadowDiffers: input.shadowDiffers ?? false,
    executionMs: input.executionMs === undefined || input.executionMs === null ? null : Math.round(input.executionMs * 1000) / 1000,
    payload,
    // Only records that keep raw payloads pay for this hash (argument retention on).
    payloadHash: args === null && payload === null ? null : payloadDigest(args, payload),
    details: maybeWellFormed(input.details),
    mcpServer: maybeWellFormed(input.mcpServer),
    duplicateKey: input.duplicateKey ?? null,
    tenantKey: head.tenantKey ?? 0,
  };
}
