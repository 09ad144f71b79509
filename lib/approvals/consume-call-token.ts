import type { Tx } from '../db';
import type { TokenKind } from './call-token';
import { now as clockNow } from '../clock/clock';

/** Thrown inside the evidence transaction when another request used the token first. */
export class TokenAlreadyUsedError extends Error {
  constructor(readonly kind: TokenKind) {
    super(`${kind} token already used`);
  }
}

/**
 * Marks a token used, atomically: the conditional update matches only an unused, unexpired
 * row, so of two concurrent calls presenting the same token exactly one succeeds.
 */
export async function consumeCallToken(tx: Tx, kind: TokenKind, id: string, tenantId: string): Promise<void> {
  const now = clockNow();
  const updated =
    kind === 'approval'
      ? await tx.approval.updateMany({
          where: { id, tenantId, status: 'approved', tokenUsedAt: null, expiresAt: { gt: now } },
          data: { tokenUsedAt: now },
        })
      : await tx.confirmation.updateMany({ where: { id, tenantId, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (updated.count !== 1) throw new TokenAlreadyUsedError(kind);
}
