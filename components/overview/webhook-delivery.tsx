import Link from 'next/link';
import type { WebhookHealth } from '@/lib/overview/overview-types';
import { formatCount, formatInstant } from '@/components/dashboard/format';
import { formatAge } from './change';

/**
 * A delivery still waiting this long is more than the retry schedule (10 s doubling, given up
 * after about 21 minutes) explains while receivers answer: the outbox may have stalled.
 */
const STALE_PENDING_MS = 30 * 60_000;

function Count({ testId, label, value, tone }: { testId: string; label: string; value: number; tone: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${value > 0 ? tone : 'text-zinc-900'}`} data-testid={testId}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

/** Whether the tenant's webhooks reach their receivers, and which receivers are failing now. */
export function WebhookDeliveryCard({ webhooks, now, canManage }: { webhooks: WebhookHealth; now: string; canManage: boolean }) {
  const quiet = webhooks.delivered + webhooks.failed + webhooks.retrying + webhooks.waiting === 0;
  const stale =
    webhooks.oldest_pending_at !== null && new Date(now).getTime() - new Date(webhooks.oldest_pending_at).getTime() > STALE_PENDING_MS;
  const settings = canManage ? (
    <Link href="/settings" className="font-medium text-brand hover:underline">
      settings
    </Link>
  ) : (
    'settings (admins)'
  );
  return (
    <section className="card p-5" data-testid="overview-webhooks">
      <h2 className="text-sm font-semibold">Webhook delivery, 24 h</h2>
      {webhooks.endpoints === 0 && quiet ? (
        <p className="mt-2 text-sm text-zinc-600" data-testid="overview-webhooks-none">
          No webhooks registered. Receivers of approval events are added in {settings}.
        </p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-4 gap-3">
            <Count testId="overview-webhooks-delivered" label="Delivered" value={webhooks.delivered} tone="text-emerald-700" />
            <Count testId="overview-webhooks-failed" label="Given up" value={webhooks.failed} tone="text-red-700" />
            <Count testId="overview-webhooks-retrying" label="Retrying" value={webhooks.retrying} tone="text-amber-700" />
            <Count testId="overview-webhooks-waiting" label="Queued" value={webhooks.waiting} tone="text-zinc-900" />
          </dl>
          <p className={`mt-3 text-xs ${stale ? 'font-medium text-red-700' : 'text-zinc-600'}`} data-testid="overview-webhooks-oldest">
            {webhooks.oldest_pending_at === null
              ? 'Nothing waiting to be delivered.'
              : `Oldest delivery still to be made: queued ${formatAge(webhooks.oldest_pending_at, now)} ago (${formatInstant(webhooks.oldest_pending_at)})${stale ? '; delivery may have stalled' : ''}.`}
          </p>
          {webhooks.failing_endpoints.length === 0 ? (
            <p className="mt-1 text-xs text-zinc-600">
              {formatCount(webhooks.endpoints)} endpoint{webhooks.endpoints === 1 ? '' : 's'}, none failing.
            </p>
          ) : (
            <ul className="mt-3 space-y-2" data-testid="overview-webhooks-failing">
              {webhooks.failing_endpoints.map((endpoint) => (
                <li key={endpoint.id} className="rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-900">
                  <p>
                    <span className="font-mono font-medium">{endpoint.host}</span> is failing:{' '}
                    {[
                      endpoint.failed > 0 && `${formatCount(endpoint.failed)} given up`,
                      endpoint.retrying > 0 && `${formatCount(endpoint.retrying)} retrying`,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                    ; last failure {formatAge(endpoint.last_failure_at, now)} ago.
                  </p>
                  {endpoint.last_error && (
                    <p className="mt-0.5 truncate font-mono text-red-800" title={endpoint.last_error}>
                      {endpoint.last_error}
                    </p>
                  )}
                </li>
              ))}
              <li className="text-xs text-zinc-600">The latest deliveries of each endpoint, with their errors, are in {settings}.</li>
            </ul>
          )}
        </>
      )}
    </section>
  );
}
