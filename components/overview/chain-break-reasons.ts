import type { VerifyBreakReason } from '@/lib/evidence/verification/verification-types';

/** Why a record does not verify, in words (docs/evidence.md#verification). */
export const CHAIN_BREAK_REASONS: Record<VerifyBreakReason, string> = {
  hash_mismatch: 'its content does not match its hash: it was changed after it was written',
  prev_hash_mismatch: 'it does not link to the record before it',
  seq_gap: 'records are missing before it',
  head_mismatch: 'the chain head names another record: records are missing at the end, or were added past it',
  payload_mismatch: 'its retained arguments or payloads were changed after it was written',
  checkpoint_mismatch: 'it is not the record a verified checkpoint recorded there: the chain was rewritten at or before it',
  seq_malformed: 'a record was written outside Toolgate with a seq that is not a whole number',
};
