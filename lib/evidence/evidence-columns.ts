/**
 * The Evidence and Violation columns the raw stores write, in the order the SQLite statements
 * bind them. A record's tenantId and contractHash are hashed but not columns: the row names them by
 * key (`tenantKey`, `contractHashKey`; ./stored-record.ts).
 */
export const EVIDENCE_COLUMNS = [
  'id',
  'seq',
  'lane',
  'prevHash',
  'hash',
  'createdAt',
  'kind',
  'requestId',
  'traceId',
  'callId',
  'w3cTraceparent',
  'apiKeyId',
  'actorUserId',
  'tool',
  'contractVersion',
  'contractHashKey',
  'argsHash',
  'idempotencyKey',
  'arguments',
  'decision',
  'valid',
  'errors',
  'warnings',
  'durationMs',
  'policyId',
  'policyVersion',
  'policyRule',
  'policy',
  'shadowDiffers',
  'executionMs',
  'payload',
  'payloadHash',
  'details',
  'mcpServer',
  'duplicateKey',
  'tenantKey',
] as const;

export const VIOLATION_COLUMNS = [
  'id',
  'tenantId',
  'evidenceId',
  'code',
  'type',
  'tool',
  'apiKeyId',
  'path',
  'decision',
  'createdAt',
] as const;

export const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');
