import { requestIdOf, storedRequestId } from './stored-request-id';

/**
 * Evidence stores its hashes (`prevHash`, `hash`, `argsHash`; the contract's hash once per
 * contract, ./stored-record.ts) as bytes: 32 for a SHA-256 instead of 64 hex characters (issue 19,
 * compact evidence; `npm run bench:evidence-size`). Everything else (hashing, verification,
 * the API, the pages) works in lowercase hex, as before: rows are turned into bytes as they are
 * written and back into hex as they are read, here and nowhere else.
 *
 * The hashes themselves are unchanged: a record's hash covers the same hex text it always did,
 * so records written before the columns became bytes verify as they are (the migration turned
 * their hex into the same bytes).
 *
 * toStoredEvidence and fromStoredEvidence also store a record's requestId as '' when it is the
 * record's own id, and read it back (./stored-request-id.ts), so every Prisma reader and writer of
 * whole records gets the real request id.
 */

/** Whether `value` is lowercase hex of whole bytes, as every digest the code makes is (and so survives the round trip). */
export function isHexDigest(value: string): boolean {
  return value.length % 2 === 0 && HEX.test(value);
}
const HEX = /^[0-9a-f]*$/;

/** A hash column's stored value, from its hex. */
export function storedHash(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length >>> 1);
  bytes.set(Buffer.from(hex, 'hex'));
  return bytes;
}

/** A hash column's hex, from its stored value (a Uint8Array from Prisma, a Buffer from a driver). */
export function hashHex(stored: Uint8Array): string {
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('hex');
}

/** The hash fields of a row, in hex (how the code holds them) or as stored. */
interface HexHashes {
  prevHash: string;
  hash: string;
  argsHash: string;
}
export interface StoredHashes {
  prevHash: Uint8Array;
  hash: Uint8Array;
  argsHash: Uint8Array;
}

export type Stored<T> = Omit<T, keyof HexHashes> & { [K in keyof HexHashes & keyof T]: Uint8Array<ArrayBuffer> };
export type Hex<T> = Omit<T, keyof StoredHashes> & { [K in keyof StoredHashes & keyof T]: string };

/** A record as it is written: its hashes as bytes, and its requestId '' when it is the record's id (./stored-request-id.ts). */
export function toStoredEvidence<T extends Partial<HexHashes>>(row: T): Stored<T> {
  const out = convertHashes(row, (hex) => storedHash(hex as string));
  if (typeof out.requestId === 'string') out.requestId = storedRequestId(out as { id: string; requestId: string });
  return out as Stored<T>;
}

/** A record as it is read: its hashes as hex, whichever of them the query selected, and its real request id. */
export function fromStoredEvidence<T extends Partial<StoredHashes>>(row: T): Hex<T> {
  const out = convertHashes(row, (stored) => hashHex(stored as Uint8Array));
  if (out.requestId === '') {
    // '' stands for the record's id: a query that reads requestId must read id too.
    if (typeof out.id !== 'string') throw new TypeError('fromStoredEvidence: requestId read without id');
    out.requestId = requestIdOf(out as { id: string; requestId: string });
  }
  return out as Hex<T>;
}

/** The columns stored as bytes. */
export const HASH_FIELDS = ['prevHash', 'hash', 'argsHash'] as const;

function convertHashes(row: object, convert: (value: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const field of HASH_FIELDS) {
    const value = out[field];
    if (value !== undefined && value !== null) out[field] = convert(value);
  }
  return out;
}
