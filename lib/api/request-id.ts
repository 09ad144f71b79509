import { timeOrderedId } from '../evidence/time-ordered-id';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request id of a call: the caller's `x-request-id` when it is a plain token of at most 128
 * characters, else a new one. New ids are ULIDs (26 characters, time-ordered) rather than
 * 36-character UUIDs: every evidence record stores its request id, and the 10 characters are
 * 10 bytes of every record on both databases (npm run bench:evidence-size).
 */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : timeOrderedId();
}
