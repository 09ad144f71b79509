import { canonicalJson, sha256Hex } from '../contracts/canonical-json';

/** The prevHash of a tenant's first record. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * How much of `prevHash` a record stores: the hash covers the previous record's whole hash, but
 * the column keeps its first 16 hex characters (64 bits), which is enough to tell a broken link
 * from an edited record, and 48 bytes less per record (issue 19: on SQLite it takes a row from 7
 * to 8 per page). The whole value is the hash of the lane's previous record, which verification
 * has in hand as it walks. Records written before keep all 64 characters and verify as they are.
 */
export const STORED_PREV_HASH_CHARS = 16;

/**
 * A record stores only the prefix when its lane's previous record is at most this many seqs
 * before it (always on SQLite, one lane); otherwise the whole hash. So a check that starts at a
 * record (prevHashOf) finds the whole value within this many index entries back, however rarely
 * a PostgreSQL lane is used.
 */
export const PREFIX_LINK_MAX_SEQS = 1000;

/** Whether a stored prevHash (whole, or its stored prefix) names `expected`, a whole hash. */
export function linksTo(storedPrevHash: string, expected: string): boolean {
  if (storedPrevHash.length === expected.length) return storedPrevHash === expected;
  return storedPrevHash.length === STORED_PREV_HASH_CHARS && expected.startsWith(storedPrevHash);
}

/** Whether a stored prevHash is whole, so the record's hash can be recomputed from the row alone. */
export function prevHashIsWhole(storedPrevHash: string): boolean {
  return storedPrevHash.length !== STORED_PREV_HASH_CHARS;
}

/** The stored fields a record's hash covers: everything but its id and its own hash. */
export interface EvidenceContent {
  tenantId: string;
  seq: number;
  prevHash: string;
  createdAt: Date;
  kind: string;
  requestId: string;
  traceId: string;
  callId: string;
  w3cTraceparent: string | null;
  apiKeyId: string | null;
  actorUserId: string | null;
  tool: string;
  contractVersion: string | null;
  contractHash: string | null;
  argsHash: string;
  idempotencyKey: string | null;
  arguments: string | null;
  decision: string;
  valid: boolean;
  errors: string;
  warnings: string;
  durationMs: number;
  // Added with policy decisions; hashed only when set (see OPTIONAL_FIELDS).
  policyId?: string | null;
  policyVersion?: string | null;
  policyRule?: string | null;
  policy?: string | null;
  shadowDiffers?: boolean;
  executionMs?: number | null;
  // Added with argument retention and administrative records; hashed only when set.
  /** SHA-256 of the raw payloads (`arguments` and the unhashed `payload` column), see payloadDigest. */
  payloadHash?: string | null;
  details?: string | null;
  // Added with the MCP gateway; hashed only when set.
  mcpServer?: string | null;
  // Added with the duplicate-call key; hashed only when set.
  duplicateKey?: string | null;
  // Added with evidence lanes; hashed only when not 0 (lane 0 is the chain every record before lanes is in).
  lane?: number;
}

/**
 * hash = SHA-256(prevHash + "\n" + canonical JSON of the content), with the whole prevHash
 * (a stored row carries only its prefix: see STORED_PREV_HASH_CHARS). Changing any stored field,
 * reordering, inserting or deleting a record breaks the chain at that point.
 *
 * Raw payloads are not in the chained content, only their digest: when `payloadHash` is set
 * the content carries it in place of `arguments` (and the `payload` column is never hashed
 * directly), so the retention purge can delete arguments, context and results and every
 * record still verifies. Records written before payloadHash existed hash `arguments` itself.
 *
 * Every covered field is a string, number, boolean or null, so the canonical JSON is the
 * members written in sorted key order, each value as JSON.stringify writes it. This runs once
 * per record on the writer's hot path (and per record in verification), so it is written out
 * field by field in that order: the general canonicaliser cost a fifth of the write, building
 * an object to stringify about 5% of the writer thread's instructions, and a loop over the field
 * names (a keyed read of a different property each time, a set lookup for optional ones) about
 * 6%. evidence-hash.test.ts checks this agrees with the general canonicaliser for any record.
 */
export function evidenceHash(c: EvidenceContent): string {
  // Members joined by commas, braced at the end. Not built with a leading comma to slice off:
  // slicing the concatenated string copied it whole first (about 4% of the writer thread's
  // instructions under callgrind), and the hash then copies it again.
  let j = '';
  j = put(j, '"actorUserId":', c.actorUserId);
  j = put(j, '"apiKeyId":', c.apiKeyId);
  j = put(j, '"argsHash":', c.argsHash);
  if (!c.payloadHash) j = put(j, '"arguments":', c.arguments);
  j = put(j, '"callId":', c.callId);
  j = put(j, '"contractHash":', c.contractHash);
  j = put(j, '"contractVersion":', c.contractVersion);
  j = put(j, '"createdAt":', isoTime(c.createdAt));
  j = put(j, '"decision":', c.decision);
  j = putSet(j, '"details":', c.details);
  j = putSet(j, '"duplicateKey":', c.duplicateKey);
  j = put(j, '"durationMs":', c.durationMs);
  j = put(j, '"errors":', c.errors);
  j = putSet(j, '"executionMs":', c.executionMs);
  j = put(j, '"idempotencyKey":', c.idempotencyKey);
  j = put(j, '"kind":', c.kind);
  if (c.lane !== 0) j = putSet(j, '"lane":', c.lane);
  j = putSet(j, '"mcpServer":', c.mcpServer);
  j = putSet(j, '"payloadHash":', c.payloadHash);
  j = putSet(j, '"policy":', c.policy);
  j = putSet(j, '"policyId":', c.policyId);
  j = putSet(j, '"policyRule":', c.policyRule);
  j = putSet(j, '"policyVersion":', c.policyVersion);
  j = put(j, '"prevHash":', c.prevHash);
  j = put(j, '"requestId":', c.requestId);
  j = put(j, '"seq":', c.seq);
  j = putSet(j, '"shadowDiffers":', c.shadowDiffers);
  j = put(j, '"tenantId":', c.tenantId);
  j = put(j, '"tool":', c.tool);
  j = put(j, '"traceId":', c.traceId);
  j = put(j, '"valid":', c.valid);
  j = put(j, '"w3cTraceparent":', c.w3cTraceparent);
  j = put(j, '"warnings":', c.warnings);
  return sha256Hex(`${c.prevHash}\n{${j}}`);
}

// The records of a batch share one createdAt, and toISOString cost about 5% of the writer
// thread's instructions when called per record: the last time's text is kept.
let lastTime = NaN;
let lastIso = '';
function isoTime(date: Date): string {
  const time = date.getTime();
  if (time !== lastTime) {
    // Throws for an invalid date (NaN never equals lastTime), as toISOString per record did.
    lastIso = date.toISOString();
    lastTime = time;
  }
  return lastIso;
}

type Covered = string | number | boolean | null | undefined;

/** `json` with the member `key` (its `"name":`) added, unless the value is missing. */
function put(json: string, key: string, value: Covered): string {
  if (value === undefined) return json;
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new TypeError(`evidence field ${key.slice(1, -2)} is not a finite number`);
  return json === '' ? `${key}${jsonValue(value)}` : `${json},${key}${jsonValue(value)}`;
}

/** The same for a field added after chains existed (OPTIONAL_FIELDS): left out while unset. */
function putSet(json: string, key: string, value: Covered): string {
  return value === null || value === false ? json : put(json, key, value);
}

// What JSON.stringify escapes in a string: `"`, `\`, control characters and (well-formed
// JSON.stringify) lone surrogates; any surrogate at all sends the string the slow way.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON.stringify of a covered value, without its call for the common cases: a string with
 * nothing to escape is itself in quotes, a finite number its ToString (as JSON.stringify writes
 * it, -0 as "0"). JSON.stringify per field was about 5% of the writer thread's instructions.
 */
function jsonValue(value: string | number | boolean | null): string {
  if (typeof value === 'string') return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  return value ? 'true' : 'false';
}

/** The same hash through the general canonicaliser: the definition the fast path must match. */
export function evidenceHashCanonical(content: EvidenceContent): string {
  const covered: Record<string, unknown> = {};
  for (const field of HASHED_FIELDS) {
    const value = content[field];
    if (OPTIONAL_FIELDS.has(field) && (value === null || value === undefined || value === false || (value === 0 && field === 'lane')))
      continue;
    if (field === 'arguments' && content.payloadHash) continue;
    covered[field] = value;
  }
  covered.createdAt = content.createdAt.toISOString();
  return sha256Hex(`${content.prevHash}\n${canonicalJson(covered)}`);
}

const HASHED_FIELDS: readonly (keyof EvidenceContent)[] = [
  'tenantId',
  'seq',
  'prevHash',
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
  'contractHash',
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
  'payloadHash',
  'details',
  'mcpServer',
  'duplicateKey',
  'lane',
];

/**
 * Fields added after chains already existed: left out of the hashed object while unset (null,
 * false for the flag, 0 for the lane), so every record written before them hashes exactly as it did.
 */
const OPTIONAL_FIELDS: ReadonlySet<keyof EvidenceContent> = new Set([
  'policyId',
  'policyVersion',
  'policyRule',
  'policy',
  'shadowDiffers',
  'executionMs',
  'payloadHash',
  'details',
  'mcpServer',
  'duplicateKey',
  'lane',
]);

/**
 * The digest a record's `payloadHash` holds: SHA-256 of the JSON array of the two raw payload
 * columns as stored (text or null), so either one changing, or one being removed while the
 * other stays, no longer matches.
 */
export function payloadDigest(args: string | null, payload: string | null): string {
  return sha256Hex(JSON.stringify([args, payload]));
}
