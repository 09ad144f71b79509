import { CHAIN_START, checkChainEnd, readChainCut, walkEvidenceChain } from './verification/walk-evidence-chain';
import type { BrokenLink } from './verification/verification-types';

export interface ChainVerification {
  valid: boolean;
  records: number;
  head: { seq: number; hash: string } | null;
  /**
   * The first record whose link does not hold, and why. `payload_mismatch`: the record's raw
   * payloads (arguments, context, result) were changed after it was written. Payloads removed
   * altogether are what the retention purge does, and keep verifying.
   */
  firstBroken: BrokenLink | null;
}

/**
 * Walks a tenant's whole evidence chain in order, recomputing every hash, without checkpoints
 * and without recording one: the plain check tests and tools use. The API's verification, which
 * relies on and records checkpoints, is ./verification/verify-evidence.ts.
 */
export async function verifyEvidenceChain(options: { tenantId: string }): Promise<ChainVerification> {
  const cut = await readChainCut(options.tenantId);
  const walk = await walkEvidenceChain({
    tenantId: options.tenantId,
    after: CHAIN_START,
    throughSeq: cut?.throughSeq ?? null,
    heads: cut?.heads,
  });
  const last = walk.position.last.seq > 0 ? walk.position.last : null;
  const firstBroken = walk.firstBroken ?? (await checkChainEnd({ tenantId: options.tenantId, cut, from: CHAIN_START, walk }));
  return { valid: firstBroken === null, records: walk.checked, head: last, firstBroken };
}
