import { db, type Tx } from '../db';
import { fromStoredEvidence, hashHex, storedHash, toStoredEvidence, type Hex, type Stored, type StoredHashes } from './stored-hashes';

/**
 * An evidence record as a row holds it and as its hash covers it. Two fields of the hashed
 * content are not columns of the row: the tenant's id (the row holds the tenant's key,
 * ./tenant-key.ts) and the contract's hash, which EvidenceContractHash stores once and the row
 * names by key (`contractHashKey`): every call of one contract version carries the same 32 bytes,
 * 33 of every SQLite row where the key takes 1-3 (issue 19, `npm run bench:evidence-size`).
 * (A third, the request id when it is the record's own id, is stored as '' by toStoredEvidence
 * and read back by fromStoredEvidence: ./stored-request-id.ts.) The raw stores write and the
 * verification walk reads these in SQL of their own; Prisma's query API goes through the
 * functions here.
 */

/** What a Prisma read of evidence includes for hashedRecordOf: the contract hash its key names. */
export const WITH_CONTRACT_HASH = { contractHashEntry: { select: { hash: true } } } as const;

/** A contract hash's key, each added the first time it is named, through `client` (a transaction's, to add it with the records). */
export async function contractHashKeys(hexes: Iterable<string | null>, client: Tx = db()): Promise<Map<string, number>> {
  const wanted = [...new Set([...hexes].filter((hex): hex is string => hex !== null))];
  const keys = new Map<string, number>();
  const read = async (hashes: string[]) => {
    const found = await client.evidenceContractHash.findMany({ where: { hash: { in: hashes.map(storedHash) } } });
    for (const row of found) keys.set(hashHex(row.hash), row.key);
  };
  if (wanted.length === 0) return keys;
  // Read first: a contract's hash is added once and then named by every batch after it.
  await read(wanted);
  const missing = wanted.filter((hex) => !keys.has(hex));
  if (missing.length === 0) return keys;
  for (const hex of missing)
    await client.$executeRaw`INSERT INTO "EvidenceContractHash" ("hash") VALUES (${storedHash(hex)}) ON CONFLICT ("hash") DO NOTHING`;
  await read(missing);
  return keys;
}

interface RecordFields {
  tenantId: string;
  contractHash: string | null;
  prevHash: string;
  hash: string;
  argsHash: string;
}

type StoredRecord<T> = Stored<Omit<T, 'tenantId' | 'contractHash'>> & { contractHashKey: number | null };

/** A record as Prisma writes it, `keys` naming its contract hash (contractHashKeys). */
export function toStoredRecord<T extends RecordFields>(record: T, keys: ReadonlyMap<string, number>): StoredRecord<T> {
  const row = { ...record } as Record<string, unknown>;
  delete row.tenantId;
  delete row.contractHash;
  row.contractHashKey = record.contractHash === null ? null : keyOf(keys, record.contractHash);
  return toStoredEvidence(row) as unknown as StoredRecord<T>;
}

/** Records as Prisma writes them, their contract hashes' keys added as needed through `client`. */
export async function toStoredRecords<T extends RecordFields>(records: readonly T[], client: Tx = db()): Promise<StoredRecord<T>[]> {
  const keys = await contractHashKeys(
    records.map((r) => r.contractHash),
    client,
  );
  return records.map((record) => toStoredRecord(record, keys));
}

type ReadRow = StoredHashes & { contractHashKey: number | null; contractHashEntry?: { hash: Uint8Array } | null };

/**
 * A record read through Prisma (with WITH_CONTRACT_HASH included) as its hash covers it: hashes in
 * hex, its contract's hash, and the id of the tenant it was read for.
 */
export function hashedRecordOf<T extends ReadRow>(
  row: T,
  tenantId: string,
): Hex<Omit<T, 'contractHashKey' | 'contractHashEntry'>> & { contractHash: string | null; tenantId: string } {
  if (row.contractHashKey !== null && !row.contractHashEntry)
    throw new Error('evidence read without its contract hash: include WITH_CONTRACT_HASH');
  const rest = { ...row } as Record<string, unknown>;
  delete rest.contractHashKey;
  delete rest.contractHashEntry;
  const contractHash = row.contractHashEntry ? hashHex(row.contractHashEntry.hash) : null;
  return { ...fromStoredEvidence(rest as Omit<T, 'contractHashKey' | 'contractHashEntry'>), contractHash, tenantId } as never;
}

function keyOf(keys: ReadonlyMap<string, number>, hex: string): number {
  const key = keys.get(hex);
  if (key === undefined) throw new Error(`no key for contract hash ${hex}`);
  return key;
}
