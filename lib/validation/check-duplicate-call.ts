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

async function findDuplicate(options: {
  tenantId: string;
  tool: string;
  argsHash: string;
  idempotencyKey?: string;
  callId: string;
  windowSeconds: number;
}) {
  const since = new Date(nowMs() - options.windowSeconds * 1000);
  // Only allowed validate/pre records of a tool that was not idempotent carry a duplicateKey
  // (record-pre-call.ts); the tenant is in the key and checked again. The index holds the key
  // alone (cheapest for the records without one), so every earlier allowed call with this key
  // is read: as many as the agent repeated this very call.
  return db().evidence.findFirst({
    where: {
      duplicateKey: duplicateKeyOf(options),
      createdAt: { gte: since },
      tenantId: options.tenantId,
      callId: { not: options.callId },
    },
    orderBy: { createdAt: 'desc' },
    select: { callId: true, createdAt: true },
  });
}
