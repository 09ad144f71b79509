import Link from 'next/link';
import type { ReactNode } from 'react';
import type { Overview } from '@/lib/overview/overview-types';
import { formatCount } from '@/components/dashboard/format';
import { CHANGE_TONES, describeChange } from './change';

function Tile({
  testId,
  title,
  href,
  value,
  tone = 'text-zinc-900',
  children,
}: {
  testId: string;
  title: string;
  href: string;
  value: string;
  tone?: string;
  children?: ReactNode;
}) {
  return (
    <Link href={href} className="card block p-5 hover:border-zinc-400" data-testid={testId}>
      <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{title}</p>
      <p className={`mt-1 text-3xl font-semibold tabular-nums ${tone}`}>{value}</p>
      {children && <div className="mt-1 space-y-0.5 text-xs text-zinc-600">{children}</div>}
    </Link>
  );
}

/** The change against the 24 hours before, under a tile's number. */
function DayChange({ current, previous, rising }: { current: number; previous: number; rising: 'worse' | 'neutral' }) {
  const change = describeChange(current, previous, rising);
  return (
    <p>
      <span className={CHANGE_TONES[change.tone]}>{change.text}</span> against the day before
    </p>
  );
}

/** Four numbers that say whether something needs attention, each one click from the detail. */
export function OverviewTiles({ overview }: { overview: Overview }) {
  const refusalRate = overview.calls > 0 ? Math.round((overview.refusals / overview.calls) * 1000) / 10 : 0;
  const { current, previous } = overview.day;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Tile testId="overview-calls" title="Calls, 24 h" href="/traces?range=24h" value={formatCount(overview.calls)}>
        <p>validate/pre checks{overview.held_for_approval > 0 && <>; {formatCount(overview.held_for_approval)} held for approval</>}</p>
        <DayChange current={current.calls} previous={previous.calls} rising="neutral" />
      </Tile>
      <Tile
        testId="overview-refusals"
        title="Refusals, 24 h"
        href="/traces?range=24h&decision=deny"
        value={formatCount(overview.refusals)}
        tone={overview.refusals > 0 ? 'text-red-700' : 'text-zinc-900'}
      >
        <p>{overview.calls > 0 ? `${refusalRate}% of calls denied` : 'no calls in the window'}</p>
        <DayChange current={current.refusals} previous={previous.refusals} rising="worse" />
      </Tile>
      <Tile
        testId="overview-pending-approvals"
        title="Pending approvals"
        href="/approvals"
        value={formatCount(overview.pending_approvals)}
        tone={overview.pending_approvals > 0 ? 'text-amber-700' : 'text-zinc-900'}
      >
        <p>{overview.pending_approvals > 0 ? 'waiting for a person now' : 'nothing waiting'}</p>
      </Tile>
      <Tile
        testId="overview-shadow-differences"
        title="Shadow differences, 24 h"
        href="/traces?range=24h&shadow=1"
        value={formatCount(overview.shadow_differences)}
      >
        <p>calls a shadow version would decide differently</p>
      </Tile>
    </div>
  );
}

/**
 * The codes refused most in the last 24 hours, each opening the violations page on that code;
 * approval holds are not among them (the table above counts them, the approval queue has them).
 */
export function TopCodes({ codes }: { codes: Overview['top_codes'] }) {
  const max = codes[0]?.count ?? 1;
  return (
    <section className="card p-5" data-testid="overview-top-codes">
      <h2 className="text-sm font-semibold">Noisiest violation codes, 24 h</h2>
      <p className="mt-0.5 mb-3 text-xs text-zinc-500">Approval holds are counted above, not here.</p>
      {codes.length === 0 ? (
        <p className="text-sm text-zinc-500">No violations in the last 24 hours.</p>
      ) : (
        <ol className="space-y-2 text-sm">
          {codes.map((c) => (
            <li key={c.code} className="grid grid-cols-[minmax(0,16rem)_1fr_5rem] items-center gap-3">
              <Link
                href={`/violations?range=24h&code=${encodeURIComponent(c.code)}`}
                className="truncate font-mono text-xs text-brand hover:underline"
                title={c.code}
              >
                {c.code}
              </Link>
              <span className="h-2 rounded bg-red-100">
                <span className="block h-2 rounded bg-red-500" style={{ width: `${(c.count / max) * 100}%` }} />
              </span>
              <span className="text-right tabular-nums">{formatCount(c.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
