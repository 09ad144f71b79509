import Link from 'next/link';
import type { Overview } from '@/lib/overview/overview-types';
import { formatExactUtc } from '../relative-time-format';

/** Keys that stop working within a week, or stopped in the last one: their agents are refused with key_expired. */
export function KeyExpiryNotice({ expiring }: { expiring: Overview['api_keys_expiring'] }) {
  if (expiring.count === 0 || expiring.soonest_at === null) return null;
  return (
    <p
      role="status"
      className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      data-testid="overview-keys-expiring"
    >
      {expiring.count === 1 ? 'One API key expires' : `${expiring.count} API keys expire`} within a week or expired in the last one (the
      first at {formatExactUtc(new Date(expiring.soonest_at))}). An agent on an expired key is refused with key_expired: make new keys on{' '}
      <Link href="/api-keys" className="font-medium underline">
        API keys
      </Link>{' '}
      and move the agents to them.
    </p>
  );
}
