import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getOverview, type Overview } from '@/lib/overview/get-overview';
import type { SessionMember } from '@/lib/auth/session';
import { can } from '@/lib/tenants/roles';
import { publicBaseUrl } from '@/lib/env';
import { log } from '@/lib/log';
import { LiveOverview } from '@/components/overview/live-overview';
import { OverviewSkeleton } from '@/components/overview/overview-skeleton';
import { NoCallsYet } from '@/components/dashboard/no-calls-yet';
import { requireMember } from './require-member';

export const metadata: Metadata = { title: 'Overview' };
// "Right now" must mean now: never a cached render.
export const dynamic = 'force-dynamic';

/**
 * The first figures, read on the server so the page arrives complete; the client component
 * keeps them live. A failed read still renders the page, which says so and keeps trying.
 */
async function OverviewSection({ member }: { member: SessionMember }) {
  let initial: Overview | null = null;
  let initialError: string | null = null;
  try {
    initial = await getOverview({ tenantId: member.tenant.id });
  } catch (error) {
    log.error('overview read failed', { tenantId: member.tenant.id, error: error instanceof Error ? error.message : String(error) });
    initialError = 'The figures could not be read from the database.';
  }
  return (
    <LiveOverview
      initial={initial}
      initialError={initialError}
      // The same permissions as the endpoints these lead to (evidence/verify, webhooks).
      canVerifyWholeChain={can(member.role, 'manage_keys')}
      canManageWebhooks={can(member.role, 'manage_keys')}
      noCallsYet={<NoCallsYet baseUrl={publicBaseUrl()} tenantId={member.tenant.id} />}
    />
  );
}

/** The home page: is anything wrong right now? Signed-out visitors are sent to sign-in by requireMember. */
export default async function OverviewPage() {
  const member = await requireMember();
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
      <p className="mt-1 mb-4 text-sm text-zinc-600">
        {member.tenant.name} now: the last hour and the last 24 hours against the day before, approvals waiting, whether the evidence chain
        verifies and webhooks arrive.
      </p>
      <Suspense fallback={<OverviewSkeleton />}>
        <OverviewSection member={member} />
      </Suspense>
    </>
  );
}
