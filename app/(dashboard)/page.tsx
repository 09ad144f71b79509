import type { Metadata } from 'next';
import Link from 'next/link';
import { getOverview } from '@/lib/overview/get-overview';
import { OverviewTiles } from '@/components/dashboard/overview-tiles';
import { NoCallsYet } from '@/components/dashboard/no-calls-yet';
import { publicBaseUrl } from '@/lib/env';
import { formatInstant } from '@/components/dashboard/format';
import { requireMember } from './require-member';

export const metadata: Metadata = { title: 'Overview' };
// "Right now" must mean now: never a cached render.
export const dynamic = 'force-dynamic';

/** The home page: is anything wrong right now? Signed-out visitors are sent to sign-in by requireMember. */
export default async function OverviewPage() {
  const member = await requireMember();
  const overview = await getOverview({ tenantId: member.tenant.id });
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        The last 24 hours of {member.tenant.name}, up to {formatInstant(overview.until)}.{' '}
        {overview.last_record_at && <>Last recorded call: {formatInstant(overview.last_record_at)}.</>}
      </p>
      <OverviewTiles overview={overview} />
      {overview.last_record_at === null && (
        <div className="mt-8">
          <NoCallsYet baseUrl={publicBaseUrl()} />
        </div>
      )}
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
