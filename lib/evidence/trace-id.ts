import { sha256Hex } from '../contracts/canonical-json';

/**
 * A call's trace id: derived from tenant and call_id, so the pre and post validations of one
 * call land in one trace without a lookup, on any instance. 32 hex characters, the W3C
 * trace-id shape.
 */
export function traceIdFor(tenantId: string, callId: string): string {
  return sha256Hex(`${tenantId}\n${callId}`).slice(0, 32);
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A W3C `traceparent` header worth keeping, or null. */
export function readTraceparent(header: string | null): string | null {
  const value = header?.trim().toLowerCase();
  return value && TRACEPARENT.test(value) ? value : null;
}
