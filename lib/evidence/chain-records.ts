import { timeOrderedId } from './time-ordered-id';
import { evidenceHash, GENESIS_HASH, payloadDigest, type EvidenceContent } from './evidence-hash';
import type { EvidenceInput } from './evidence-input';

/** A row as inserted: the hashed content, plus its id, hash and the unhashed raw `payload`. */
export type EvidenceRecord = EvidenceContent & { id: string; hash: string; payload: string | null };

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

/** Chains the inputs onto the heads (mutating them) and returns the rows to insert. */
export function chainRecords(inputs: EvidenceInput[], heads: Map<string, { seq: number; hash: string }>, createdAt: Date) {
  const rows: EvidenceRecord[] = [];
  const violations: ViolationRecord[] = [];
  for (const input of inputs) {
    const head = heads.get(input.tenantId) ?? { seq: 0, hash: GENESIS_HASH };
    const id = timeOrderedId(createdAt.getTime());
    // The row is made whole, in one shape, before hashing: spreading the content into a row
    // with id and hash added showed up as map migrations in the writer thread.
    const row = evidenceRow(input, head, createdAt, id);
    row.hash = evidenceHash(row);
    heads.set(input.tenantId, { seq: row.seq, hash: row.hash });
    rows.push(row);
    for (const issue of input.errors) {
      violations.push({
        id: timeOrderedId(createdAt.getTime()),
        tenantId: input.tenantId,
        evidenceId: id,
        code: issue.code,
        type: issue.type,
        tool: input.tool,
        apiKeyId: input.apiKeyId ?? null,
        path: issue.path,
        decision: input.decision,
        createdAt,
      });
    }
  }
  return { rows, violations };
}

/** The row for `input`, its hash still to be set (evidenceHash leaves out id and hash). */
function evidenceRow(input: EvidenceInput, head: { seq: number; hash: string }, createdAt: Date, id: string): EvidenceRecord {
  const args = input.arguments ?? null;
  const payload = input.payload ?? null;
  return {
    id,
    hash: '',
    tenantId: input.tenantId,
    seq: head.seq + 1,
    prevHash: head.hash,
    createdAt,
    kind: input.kind,
    requestId: input.requestId,
    traceId: input.traceId,
    callId: input.callId,
    w3cTraceparent: input.w3cTraceparent ?? null,
    apiKeyId: input.apiKeyId ?? null,
    actorUserId: input.actorUserId ?? null,
    tool: input.tool,
    contractVersion: input.contractVersion ?? null,
    contractHash: input.contractHash ?? null,
    argsHash: input.argsHash,
    idempotencyKey: input.idempotencyKey ?? null,
    arguments: args,
    decision: input.decision,
    valid: input.valid,
    errors: JSON.stringify(input.errors),
    warnings: JSON.stringify(input.warnings),
    // Rounded so that both databases store exactly the value that was hashed.
    durationMs: Math.round(input.durationMs * 1000) / 1000,
    policyId: input.policyId ?? null,
    policyVersion: input.policyVersion ?? null,
    policyRule: input.policyRule ?? null,
    policy: input.policy ?? null,
    shadowDiffers: input.shadowDiffers ?? false,
    executionMs: input.executionMs === undefined || input.executionMs === null ? null : Math.round(input.executionMs * 1000) / 1000,
    payload,
    // Only records that keep raw payloads pay for this hash (argument retention on).
    payloadHash: args === null && payload === null ? null : payloadDigest(args, payload),
    details: input.details ?? null,
    mcpServer: input.mcpServer ?? null,
    duplicateKey: input.duplicateKey ?? null,
  };
}
