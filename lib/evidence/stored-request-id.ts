/**
 * A record whose requestId is its own id (./first-record-id.ts: almost every record of an agent
 * that sends no x-request-id) stores requestId as '': 26 bytes less per record. The chain hash
 * covers the real request id (lib/evidence/evidence-hash.ts), so everything that reads the
 * column reads it through requestIdOf, and every writer writes it through storedRequestId.
 */

interface RequestIdOfRecord {
  id: string;
  requestId: string;
}

/** The requestId column's value for a record: '' when it is the record's own id. */
export function storedRequestId(row: RequestIdOfRecord): string {
  return row.requestId === row.id ? '' : row.requestId;
}

/** A stored record's request id: its own id when the column holds ''. */
export function requestIdOf(row: RequestIdOfRecord): string {
  return row.requestId === '' ? row.id : row.requestId;
}
