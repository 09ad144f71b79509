import type { EvidenceKind } from './evidence-kinds';
import type { CallHistory } from '../history/call-history';

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
  /**
   * The record's own id, when it is the first record of a request whose id Toolgate made: that
   * id (./first-record-id.ts). Unset, the record gets a new one (chainRecords).
   */
  recordId?: string;
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
  /** The MCP server the call went through, when the gateway made it (lib/mcp). */
  mcpServer?: string | null;
  /** What the duplicate-call check finds this call by, when it is one it looks back at (lib/validation/duplicate-key.ts). */
  duplicateKey?: string | null;
  /**
   * What the record does to the policy history, checked and counted in its transaction; not
   * part of the record itself. A record whose claims or reads no longer hold is not written.
   */
  history?: CallHistory;
}

export interface RecordedEvidence {
  id: string;
  seq: number;
  hash: string;
}

/** A plain-SQL evidence store (./raw-evidence-store.ts, ./pg-evidence-store.ts) or the writer thread in front of one. */
export interface RawEvidenceStore {
  /** Per input, its record; null for one refused because its history claims or reads no longer held. */
  commit(inputs: EvidenceInput[]): Promise<(RecordedEvidence | null)[]>;
  /** Takes a new batch while earlier ones are still committing, and commits them in order. */
  readonly pipelined?: boolean;
  close(): Promise<void>;
}
