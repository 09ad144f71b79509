import { db } from '../db';
import { makeIssue, type ValidationIssue } from './error-codes';
import { nowMs } from '../clock/clock';
import { duplicateKeyOf } from './duplicate-key';

/**
 * The AXAG_DUPLICATE_CALL warning for a call of a non-idempotent tool when the same call was
 * allowed within the tenant's window: the same idempotency key when one is sent, else the same
 * arguments (an earlier call counts as the same only when it was matched the same way: a call
 * without a key is not compared with one that sent a key). Null when there was none.
 */
export async function checkDuplicateCall(options: {
  tenantId: string;
  tool: string;
  argsHash: string;
  idempotencyKey?: string;
  callId: string;
  windowSeconds: number;
}): Promise<ValidationIssue | null> {
  const duplicate = await findDuplicate(options);
  if (!duplicate) return null;
  return makeIssue('AXAG_DUPLICATE_CALL', {
    intent: options.tool,
    message: `${options.tool} is not idempotent and the same call (${options.idempotencyKey ? 'idempotency key' : 'arguments'}) was allowed ${Math.round((nowMs() - duplicate.createdAt.getTime()) / 1000)}s ago as call "${duplicate.callId}".`,
    previous_call_id: duplicate.callId,
  });
}

/**
 * How many of the newest records with the call's key are read. Enough for a call validated again
 * under its own call_id a few times; an agent that repeats one call_id more often than this is
 * not warned about an older call under another id, but no repetition makes the check read more.
 */
export const DUPLICATE_LOOKBACK = 16;

async function findDuplicate(options: {
  tenantId: string;
  tool: string;
  argsHash: string;
  idempotencyKey?: string;
  callId: string;
  windowSeconds: number;
}) {
  const since = nowMs() - options.windowSeconds * 1000;
  // Only allowed (or transformed) validate/pre records of a tool that was not idempotent carry a duplicateKey
  // (record-pre-call.ts), and only they are in its (duplicateKey, seq) index: the newest few are
  // read from its end. The key is a digest of the tenant too; the tenant is checked again. No
  // tenantId or createdAt in the statement: SQLite, without statistics, could then walk the
  // tenant's (tenantKey, seq) index for the order, and a createdAt condition would make it read
  // every older record with the key before giving up. seq and createdAt grow together
  // (lib/evidence/seq-at.ts), so the first record before the window ends the search.
  const newest = await db().evidence.findMany({
    where: { duplicateKey: duplicateKeyOf(options) },
    orderBy: { seq: 'desc' },
    take: DUPLICATE_LOOKBACK,
    // The tenant through its key: a second, batched read, made only when a record was found.
    select: { tenant: { select: { tenantId: true } }, callId: true, createdAt: true },
  });
  for (const record of newest) {
    if (record.createdAt.getTime() < since) return null;
    if (record.tenant.tenantId === options.tenantId && record.callId !== options.callId) return record;
  }
  return null;
}
