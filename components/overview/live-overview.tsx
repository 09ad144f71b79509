'use client';

import Link from 'next/link';
import { useCallback, useState, type ReactNode } from 'react';
import type { Overview } from '@/lib/overview/overview-types';
import { formatInstant } from '@/components/dashboard/format';
import { KeyExpiryNotice } from './key-expiry-notice';
import { usePolling } from '../use-polling';
import { EvidenceChainCard } from './chain-verification';
import { fetchOverview } from './overview-api';
import { OverviewTiles, TopCodes } from './overview-tiles';
import { WebhookDeliveryCard } from './webhook-delivery';
import { SpikeCallout, WindowComparison } from './window-comparison';

/**
 * How often the open page reads the overview. Longer than the approval queue's 2.5 s: each read
 * counts 48 hours of evidence (about 0.1 s of database time at a million records), and these
 * figures move by the minute, not by the second. Hidden tabs do not poll.
 */
export const OVERVIEW_POLL_MS = 5000;

/**
 * The overview, kept live: rendered first by the server, then refreshed from GET /api/v1/overview
 * while the tab is visible. When a refresh fails the last figures stay, marked with their time.
 */
export function LiveOverview(props: {
  initial: Overview | null;
  initialError: string | null;
  canVerifyWholeChain: boolean;
  canManageWebhooks: boolean;
  /** What the page shows while the tenant has no evidence at all (how to make a first call). */
  noCallsYet: ReactNode;
}) {
  const [overview, setOverview] = useState(props.initial);
  const [error, setError] = useState(props.initialError);

  const refresh = useCallback(async () => {
    const fetched = await fetchOverview();
    if (fetched.ok) {
      setOverview(fetched.value);
      setError(null);
    } else setError(fetched.message);
  }, []);
  usePolling(refresh, OVERVIEW_POLL_MS);

  if (!overview) {
    return (
      <div className="card border-red-200 p-6 text-sm" role="alert" data-testid="overview-error">
        <h2 className="mb-1 text-base font-semibold text-red-800">The overview could not be read</h2>
        <p className="text-zinc-700">{error ?? 'Unknown error.'} This page tries again every few seconds.</p>
      </div>
    );
  }

  return (
    <>
      <p className="mb-4 flex flex-wrap items-center gap-2 text-xs text-zinc-600" data-testid="overview-status">
        {error ? (
          <span className="rounded bg-amber-50 px-2 py-0.5 font-medium text-amber-800 ring-1 ring-amber-200" role="status">
            Not updated: {error} Showing the figures of {formatInstant(overview.until)}; trying again.
          </span>
        ) : (
          <>
            <span className="inline-block h-2 w-2 rounded-full bg-emerald-500" aria-hidden />
            <span>
              Live: updates every few seconds. Figures of <span data-testid="overview-updated">{formatInstant(overview.until)}</span>.
            </span>
          </>
        )}
        {overview.last_record_at && <span>Last recorded call: {formatInstant(overview.last_record_at)}.</span>}
      </p>
      <SpikeCallout kinds={overview.refusal_kinds} />
      <KeyExpiryNotice expiring={overview.api_keys_expiring} />
      <OverviewTiles overview={overview} />
      {overview.last_record_at === null ? (
        <div className="mt-4">{props.noCallsYet}</div>
      ) : (
        <div className="mt-4 space-y-4">
          <WindowComparison overview={overview} />
          <TopCodes codes={overview.top_codes} />
        </div>
      )}
      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <EvidenceChainCard chain={overview.evidence_chain} canVerifyWholeChain={props.canVerifyWholeChain} />
        <WebhookDeliveryCard webhooks={overview.webhooks} now={overview.until} canManage={props.canManageWebhooks} />
      </div>
      {overview.last_record_at !== null && (
        <p className="mt-8 text-sm text-zinc-600">
          Every call is on the{' '}
          <Link href="/traces" className="font-medium text-brand hover:underline">
            traces
          </Link>{' '}
          page; every error, with its trend and a CSV export, on the{' '}
          <Link href="/violations" className="font-medium text-brand hover:underline">
            violations
          </Link>{' '}
          page.
        </p>
      )}
    </>
  );
}
