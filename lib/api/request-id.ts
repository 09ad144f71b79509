import { newRequestId, type FirstRecordId } from '../evidence/first-record-id';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request id of a call: the caller's `x-request-id` when it is a plain token of at most 128
 * characters, else a new one. New ids are ULIDs (26 characters, time-ordered) rather than
 * 36-character UUIDs: every evidence record stores its request id, and the 10 characters are
 * 10 bytes of every record on both databases (npm run bench:evidence-size).
 */
export function requestIdFrom(incoming: string | null | undefined): string {
  return requestIdsFrom(incoming).requestId;
}

/**
 * The request id (requestIdFrom) and, when Toolgate made it, the FirstRecordId that hands it to
 * the request's first evidence record as that record's id: the record then does not store it a
 * second time. A caller's own id never becomes a record's id (it may send the same one twice).
 */
export function requestIdsFrom(incoming: string | null | undefined): { requestId: string; firstRecordId: FirstRecordId | undefined } {
  return incoming && REQUEST_ID.test(incoming) ? { requestId: incoming, firstRecordId: undefined } : newRequestId();
}
