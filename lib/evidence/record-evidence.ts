import { env } from '../env';
import type { Tx } from '../db';
import { EvidenceWriter } from './evidence-writer';
import type { RawEvidenceStoreFactory } from './raw-evidence-store';
import type { EvidenceKind } from './evidence-kinds';

/** What evidence keeps of each problem found: contract codes (AXAG_*) and AGN-036 rule ids alike. */
export interface EvidenceIssue {
  code: string;
  type: string;
  message: string;
  path: string;
}

export interface EvidenceInput {
  tenantId: string;
  /**
   * Calls (pre, post, pipeline, manifest) and approval decisions; the administrative kinds
   * record who changed the tenant itself (members, settings, the retention purge).
   */
  kind: EvidenceKind;
  requestId: string;
  traceId: string;
  callId: string;
  w3cTraceparent?: string | null;
  apiKeyId?: string | null;
  actorUserId?: string | null;
  tool: string;
  contractVersion?: string | null;
  contractHash?: string | null;
  argsHash: string;
  idempotencyKey?: string | null;
  /** Redacted arguments as JSON text, only when the tenant opted in. */
  arguments?: string | null;
  decision: string;
  valid: boolean;
  errors: EvidenceIssue[];
  warnings: EvidenceIssue[];
  durationMs: number;
  /** The policy that decided, when one did (lib/policies/evaluate-policies.ts). */
  policyId?: string | null;
  policyVersion?: string | null;
  policyRule?: string | null;
  /** The policy decision's details as JSON text: reason, evaluated policies, transform, shadow. */
  policy?: string | null;
  shadowDiffers?: boolean;
  /** validate/post: the tool's own run time as the agent reported it. */
  executionMs?: number | null;
  /**
   * The call's other raw payloads as JSON text ({context?, result?, error?,
   * transformed_arguments?}), only when the tenant retains arguments; purged with them.
   */
  payload?: string | null;
  /** What an administrative record changed, as JSON text (who, what, before and after). */
  details?: string | null;
}

export interface RecordedEvidence {
  id: string;
  seq: number;
  hash: string;
}

let writer: EvidenceWriter | undefined;
let storeFactory: RawEvidenceStoreFactory | undefined;

/**
 * Chooses how plain records reach the database, before the first record is written (the
 * data-plane server moves SQLite writes to their own thread).
 */
export function setRawEvidenceStore(factory: RawEvidenceStoreFactory): void {
  if (writer) throw new Error('setRawEvidenceStore: the evidence writer is already running');
  storeFactory = factory;
}

/**
 * Appends one record to the tenant's chain, with a violation row per error, and resolves only
 * once it is committed (grouped with records arriving at the same time; see EvidenceWriter).
 * `within` runs inside the same transaction (consuming a single-use token, creating the pending
 * approval), so a decision and its side effects commit together or not at all. When the queue
 * is full it rejects at once with a 503 AppError.
 */
export function recordEvidence<T = undefined>(input: EvidenceInput, within?: (tx: Tx) => Promise<T>): Promise<RecordedEvidence & { extra: T }> {
  writer ??= new EvidenceWriter({ maxQueue: env().TOOLGATE_EVIDENCE_QUEUE_MAX, maxBatch: env().TOOLGATE_EVIDENCE_BATCH_MAX, storeFactory });
  return writer.write(input, within);
}

/** Closes the writer's own database connections (shutdown, and tests between databases). */
export async function closeEvidenceWriter(): Promise<void> {
  await writer?.close();
}
