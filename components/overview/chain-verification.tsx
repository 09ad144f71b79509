'use client';

import { useState } from 'react';
import type { EvidenceChainHealth } from '@/lib/overview/overview-types';
import { formatCount, formatInstant } from '@/components/dashboard/format';
import { CHAIN_BREAK_REASONS as REASONS } from './chain-break-reasons';
import { fetchChainVerification, type ChainVerificationView, type Fetched } from './overview-api';
import { VerificationRun } from './verification-run';

type WholeChain =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; at: string; result: ChainVerificationView }
  | { state: 'error'; message: string };

/** What the answer read itself, and what it relied on a checkpoint for. */
function Coverage({ result }: { result: ChainVerificationView }) {
  const { covered } = result;
  const read =
    covered.checked === 0
      ? 'No record was new'
      : `Read ${formatCount(covered.checked)} records (seq ${formatCount(covered.fromSeq ?? 0)} to ${formatCount(covered.toSeq ?? 0)})`;
  return (
    <p className="mt-1 text-xs text-zinc-500">
      {covered.checkpoint
        ? `${read} after the checkpoint at seq ${formatCount(covered.checkpoint.seq)}, verified ${formatInstant(covered.checkpoint.verifiedAt)}; the records up to it were verified then. Re-verify every record to read them again.`
        : `${read}: every record, from the first.`}
      {result.ignoredCheckpoints.length > 0 &&
        ` ${formatCount(result.ignoredCheckpoints.length)} stored checkpoints were ignored: their MAC does not hold (forged, or made under another TOOLGATE_SECRET).`}
    </p>
  );
}

/**
 * Why the verify did not answer. A chain too long for one request (TOOLGATE_VERIFY_MAX_RECORDS)
 * is the background run's work, whose button is just below.
 */
function verifyRefusal(fetched: Extract<Fetched<unknown>, { ok: false }>): string {
  if (fetched.code !== 'verification_too_large') return fetched.message;
  const records = typeof fetched.details?.records === 'number' ? formatCount(fetched.details.records) : 'More';
  const max = typeof fetched.details?.max === 'number' ? ` (${formatCount(fetched.details.max)})` : '';
  return `${records} records to read are more than one request verifies${max}. Re-verify every record below: it runs in the background, and once it passes, verifying reads only what is newer.`;
}

/**
 * Admins verify the chain from here, on request: from the newest verified checkpoint (so it
 * reads what is new), or every record again in a background run.
 */
function VerifyWholeChain() {
  const [whole, setWhole] = useState<WholeChain>({ state: 'idle' });
  const verify = async () => {
    setWhole({ state: 'running' });
    const fetched = await fetchChainVerification();
    setWhole(
      fetched.ok
        ? { state: 'done', at: new Date().toISOString(), result: fetched.value }
        : { state: 'error', message: verifyRefusal(fetched) },
    );
  };
  return (
    <div className="mt-3 border-t border-zinc-100 pt-3" data-testid="overview-chain-whole">
      <button type="button" className="btn-secondary text-xs" onClick={() => void verify()} disabled={whole.state === 'running'}>
        {whole.state === 'running' ? 'Verifying the whole chain…' : 'Verify the whole chain'}
      </button>
      {whole.state === 'done' && (
        <>
          {whole.result.valid ? (
            <p className="mt-2 text-xs text-emerald-800">
              All {formatCount(whole.result.records)} records verify ({formatInstant(whole.at)}).
            </p>
          ) : (
            <p className="mt-2 text-xs text-red-700">
              Broken at record {whole.result.firstBroken?.seq ?? '?'}:{' '}
              {whole.result.firstBroken ? REASONS[whole.result.firstBroken.reason] : 'unknown'} ({formatInstant(whole.at)}).
            </p>
          )}
          <Coverage result={whole.result} />
        </>
      )}
      {whole.state === 'error' && <p className="mt-2 text-xs text-red-700">{whole.message}</p>}
      <VerificationRun />
    </div>
  );
}

/** Whether the newest evidence still verifies, checked on every refresh of the page. */
export function EvidenceChainCard({ chain, canVerifyWholeChain }: { chain: EvidenceChainHealth; canVerifyWholeChain: boolean }) {
  const badge =
    chain.valid === null
      ? { label: 'No records yet', tone: 'bg-zinc-100 text-zinc-700 ring-zinc-200' }
      : chain.valid
        ? { label: 'Verified', tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200' }
        : { label: 'Broken', tone: 'bg-red-50 text-red-700 ring-red-200' };
  return (
    <section className="card p-5" data-testid="overview-evidence-chain">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">Evidence chain</h2>
        <span
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${badge.tone}`}
          data-testid="overview-chain-status"
        >
          {badge.label}
        </span>
      </div>
      <div className="mt-2 text-sm text-zinc-700">
        {chain.valid === null && <p>The chain starts with the first recorded call.</p>}
        {chain.valid === true && (
          <p>
            The newest {formatCount(chain.records_checked)} records (seq {formatCount(chain.from_seq ?? 0)} to{' '}
            {formatCount(chain.to_seq ?? 0)}) verify: every hash recomputed, every record linked to the one before it, the last one the
            chain head.
          </p>
        )}
        {chain.valid === false && chain.first_broken && (
          <p className="text-red-700">
            Record {formatCount(chain.first_broken.seq)} does not verify: {REASONS[chain.first_broken.reason]}. Records before seq{' '}
            {formatCount(chain.from_seq ?? 0)} were not checked here.
          </p>
        )}
        <p className="mt-1 text-xs text-zinc-500">Checked {formatInstant(chain.checked_at)}, with every refresh.</p>
      </div>
      {chain.valid !== null &&
        (canVerifyWholeChain ? (
          <VerifyWholeChain />
        ) : (
          <p className="mt-3 border-t border-zinc-100 pt-3 text-xs text-zinc-500">An admin can verify the whole chain from here.</p>
        ))}
    </section>
  );
}
