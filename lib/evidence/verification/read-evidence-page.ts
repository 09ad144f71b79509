import { db, dbProvider } from '../../db';
import { nullableNum, num, raw, sql, toBool, toDate } from '../../db/sql';
import type { EvidenceContent } from '../evidence-hash';
import { EVIDENCE_COLUMNS } from '../evidence-columns';
import { HASH_FIELDS } from '../stored-hashes';
import { requestIdOf } from '../stored-request-id';
import { byTenantKey } from '../tenant-key';

/** A stored record as a verification walk reads it: every hashed field, its hashes in hex. */
export type WalkedRecord = EvidenceContent & {
  id: string;
  lane: number;
  hash: string;
  payload: string | null;
};

/**
 * One page of a tenant's evidence in seq order, after `afterSeq` and through `throughSeq` (null:
 * to the end), its hashes turned into hex by the database. Read through Prisma's query API,
 * the four hash columns cost a full walk about 12 µs more per record on SQLite (100,000
 * records: 2.2 s before they were bytes, 3.4 s after; `npm run bench:verify`): a Buffer per
 * column from the driver, a base64 round trip in Prisma's client, then hex in JavaScript and
 * the garbage of all three. `hex()` and `encode()` make the text in C.
 */
export async function readEvidencePage(
  tenantId: string,
  afterSeq: number,
  throughSeq: number | null,
  limit: number,
): Promise<WalkedRecord[]> {
  const through = throughSeq === null ? sql`` : sql`AND "seq" <= ${throughSeq}`;
  const rows = await db().$queryRaw<Record<string, unknown>[]>`
    SELECT ${HEX_COLUMNS[dbProvider()]}, ${CREATED_AT[dbProvider()]}, ${OTHER_COLUMNS}
    FROM "Evidence" e WHERE ${byTenantKey(tenantId, 'e')} AND e."seq" > ${afterSeq} ${through}
    ORDER BY e."seq" ASC LIMIT ${limit}`;
  return rows.map((row) => walkedRecord(row, tenantId));
}

// The contract's hash through its key (lib/evidence/stored-record.ts): NULL when the record names none.
const CONTRACT_HASH = `(SELECT c."hash" FROM "EvidenceContractHash" c WHERE c."key" = e."contractHashKey")`;
const HEX_COLUMNS = {
  sqlite: raw([...HASH_FIELDS.map((c) => `lower(hex(e."${c}")) AS "${c}"`), `lower(hex(${CONTRACT_HASH})) AS "contractHash"`].join(', ')),
  postgresql: raw(
    [...HASH_FIELDS.map((c) => `encode(e."${c}", 'hex') AS "${c}"`), `encode(${CONTRACT_HASH}, 'hex') AS "contractHash"`].join(', '),
  ),
};

const HASHES: ReadonlySet<string> = new Set(HASH_FIELDS);
// SQLite keeps createdAt as milliseconds (lib/db/adapter.ts), which the adapter turns into a Date
// for a column declared DateTime, throwing for one out of a Date's range (an edited record, which
// the walk must report, not fail on): as an expression it arrives as the stored number.
const CREATED_AT = { sqlite: raw(`(e."createdAt" + 0) AS "createdAt"`), postgresql: raw(`e."createdAt"`) };
// Not the keys: the tenant's is what the walk reads by, the contract hash's is read as the hash.
const OTHER_COLUMNS = raw(
  EVIDENCE_COLUMNS.filter((c) => !HASHES.has(c) && c !== 'tenantKey' && c !== 'contractHashKey' && c !== 'createdAt')
    .map((c) => `e."${c}"`)
    .join(', '),
);

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

// Raw rows arrive as the driver gives them: SQLite booleans as 0/1, counts maybe as bigint.
function walkedRecord(row: Record<string, unknown>, tenantId: string): WalkedRecord {
  return {
    id: String(row.id),
    // Not stored: the page was read by the tenant's key.
    tenantId,
    seq: num(row.seq),
    lane: num(row.lane),
    prevHash: String(row.prevHash),
    hash: String(row.hash),
    createdAt: toDate(row.createdAt),
    kind: String(row.kind),
    requestId: requestIdOf({ id: String(row.id), requestId: String(row.requestId) }),
    traceId: String(row.traceId),
    callId: String(row.callId),
    w3cTraceparent: text(row.w3cTraceparent),
    apiKeyId: text(row.apiKeyId),
    actorUserId: text(row.actorUserId),
    tool: String(row.tool),
    contractVersion: text(row.contractVersion),
    // SQLite's hex() of NULL is '', not NULL.
    contractHash: row.contractHash ? String(row.contractHash) : null,
    argsHash: String(row.argsHash),
    idempotencyKey: text(row.idempotencyKey),
    arguments: text(row.arguments),
    decision: String(row.decision),
    valid: toBool(row.valid),
    errors: String(row.errors),
    warnings: String(row.warnings),
    durationMs: num(row.durationMs),
    policyId: text(row.policyId),
    policyVersion: text(row.policyVersion),
    policyRule: text(row.policyRule),
    policy: text(row.policy),
    shadowDiffers: toBool(row.shadowDiffers),
    executionMs: nullableNum(row.executionMs),
    payload: text(row.payload),
    payloadHash: text(row.payloadHash),
    details: text(row.details),
    mcpServer: text(row.mcpServer),
    duplicateKey: text(row.duplicateKey),
  };
}
