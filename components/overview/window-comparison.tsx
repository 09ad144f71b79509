import Link from 'next/link';
import type { Overview, RefusalKindCounts } from '@/lib/overview/overview-types';
import { describeSpike } from '@/lib/overview/spikes';
import { VIOLATION_KIND_LABELS, type ViolationKind } from '@/lib/violations/violation-kind-labels';
import { formatCount } from '@/components/dashboard/format';
import { CHANGE_TONES, describeChange } from './change';

/** The violations of one kind over the last day, by the hour: the hour that spiked among the ones before it. */
export const kindHref = (kind: ViolationKind) => `/violations?kind=${kind}&range=24h`;

function Cells({
  id,
  pair,
  rising,
  divider = false,
}: {
  id: string;
  pair: { current: number; previous: number };
  rising: 'worse' | 'neutral';
  divider?: boolean;
}) {
  const change = describeChange(pair.current, pair.previous, rising);
  return (
    <>
      <td className={`px-3 py-2 text-right font-medium tabular-nums ${divider ? 'border-l border-zinc-200' : ''}`} data-testid={id}>
        {formatCount(pair.current)}
      </td>
      <td className="px-3 py-2 text-right text-zinc-600 tabular-nums" data-testid={`${id}-before`}>
        {formatCount(pair.previous)}
      </td>
      <td className={`px-3 py-2 text-right text-xs tabular-nums ${CHANGE_TONES[change.tone]}`} data-testid={`${id}-change`}>
        {change.text}
      </td>
    </>
  );
}

/** "Spike" in words beside the name, so it does not depend on colour. */
function SpikeMarker({ kind }: { kind: RefusalKindCounts }) {
  return (
    <span
      className="ml-2 inline-flex items-center gap-1 rounded bg-red-50 px-1.5 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200 ring-inset"
      data-testid={`overview-kind-${kind.kind}-spike`}
      title={describeSpike(kind.hour.current, kind.hour.previous)}
    >
      <span aria-hidden>▲</span> spike
    </span>
  );
}

/**
 * The kinds that spiked in the last hour, said in a sentence each at the top of the page, each
 * a link to those violations.
 */
export function SpikeCallout({ kinds }: { kinds: RefusalKindCounts[] }) {
  const spikes = kinds.filter((k) => k.spike);
  if (spikes.length === 0) return null;
  return (
    <section className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900" data-testid="overview-spikes">
      <h2 className="font-semibold">{spikes.length === 1 ? 'A spike in the last hour' : `${spikes.length} spikes in the last hour`}</h2>
      <ul className="mt-1 space-y-0.5">
        {spikes.map((k) => (
          <li key={k.kind}>
            <Link href={kindHref(k.kind)} className="font-medium underline hover:no-underline">
              {VIOLATION_KIND_LABELS[k.kind].label}
            </Link>
            : {describeSpike(k.hour.current, k.hour.previous).replace(/^Spike: /, '')}.
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The last hour against the same hour the day before, and the last 24 hours against the 24
 * before: is today unusual, and did it just become so? Calls, then what went wrong by kind, each
 * kind a link to its violations.
 */
export function WindowComparison({ overview }: { overview: Pick<Overview, 'hour' | 'day' | 'refusal_kinds'> }) {
  return (
    <section className="card overflow-x-auto p-5" data-testid="overview-comparison">
      <h2 className="text-sm font-semibold">Against the day before</h2>
      <p className="mt-0.5 mb-3 text-xs text-zinc-500">
        The last hour next to the same hour yesterday; the last 24 hours next to the 24 hours before them. Refusals and holds by kind, in
        calls; a kind is a spike when its last hour has at least 5 calls and 3 times the same hour yesterday.
      </p>
      <table className="w-full min-w-[40rem] text-sm">
        <thead>
          <tr className="border-b border-zinc-200 text-xs text-zinc-500">
            <th className="py-2 pr-3 text-left font-medium" />
            <th className="px-3 py-2 text-right font-medium">Last hour</th>
            <th className="px-3 py-2 text-right font-medium">Same hour yesterday</th>
            <th className="px-3 py-2 text-right font-medium">Change</th>
            <th className="border-l border-zinc-200 px-3 py-2 text-right font-medium">Last 24 h</th>
            <th className="px-3 py-2 text-right font-medium">The 24 h before</th>
            <th className="px-3 py-2 text-right font-medium">Change</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-zinc-200">
            <th scope="row" className="py-2 pr-3 text-left font-normal" title="validate/pre checks">
              Calls
            </th>
            <Cells
              id="overview-hour-calls"
              pair={{ current: overview.hour.current.calls, previous: overview.hour.previous.calls }}
              rising="neutral"
            />
            <Cells
              id="overview-day-calls"
              pair={{ current: overview.day.current.calls, previous: overview.day.previous.calls }}
              rising="neutral"
              divider
            />
          </tr>
          {overview.refusal_kinds.map((kind) => (
            <tr key={kind.kind} className="border-b border-zinc-100 last:border-0" data-testid={`overview-kind-${kind.kind}`}>
              <th scope="row" className="py-2 pr-3 text-left font-normal">
                <Link href={kindHref(kind.kind)} className="text-brand hover:underline" title={VIOLATION_KIND_LABELS[kind.kind].help}>
                  {VIOLATION_KIND_LABELS[kind.kind].label}
                </Link>
                {kind.spike && <SpikeMarker kind={kind} />}
              </th>
              <Cells id={`overview-hour-${kind.kind}`} pair={kind.hour} rising="worse" />
              <Cells id={`overview-day-${kind.kind}`} pair={kind.day} rising="worse" divider />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
