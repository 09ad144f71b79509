import { sha256Hex } from '../contracts/canonical-json';

/**
 * What the duplicate-call check (check-duplicate-call.ts) finds earlier calls by: the tenant, the
 * tool, and the idempotency key when the call sends one, else the hash of its arguments. Stored
 * (as evidence's `duplicateKey`) only on the records the check looks back at, allowed calls of
 * a tool that is not idempotent, so the index over it holds those alone. Unambiguous: the parts
 * are JSON-encoded, so no tool name or key can run into the next part.
 */
export function duplicateKeyOf(call: { tenantId: string; tool: string; idempotencyKey?: string | null; argsHash: string }): string {
  const by = call.idempotencyKey ? ['key', call.idempotencyKey] : ['args', call.argsHash];
  // 128 bits: a collision would only raise a warning, never refuse a call.
  return sha256Hex(JSON.stringify([call.tenantId, call.tool, ...by])).slice(0, 32);
}
