import type { Overview, WindowComparison as Comparison, WindowCounts } from '@/lib/overview/overview-types';
import { formatCount } from '@/components/dashboard/format';
import { CHANGE_TONES, describeChange } from './change';

type Metric = {
  key: keyof Omit<WindowCounts, 'since' | 'until' | 'post_checks'>;
  label: string;
  help: string;
  rising: 'worse' | 'neutral';
};

const METRICS: Metric[] = [
  { key: 'calls', label: 'Calls', help: 'validate/pre checks', rising: 'neutral' },
  { key: 'refusals', label: 'Refusals', help: 'checks denied', rising: 'worse' },
  { key: 'held_for_approval', label: 'Held for approval', help: 'checks sent to a person', rising: 'worse' },
  {
    key: 'post_failures',
    label: 'Post-call failures',
    help: 'validate/post checks denied: a result or error the contract does not allow',
    rising: 'worse',
  },
];

function Cells({ id, comparison, metric }: { id: 'hour' | 'day'; comparison: Comparison; metric: Metric }) {
  const current = comparison.current[metric.key];
  const previous = comparison.previous[metric.key];
  const change = describeChange(current, previous, metric.rising);
  return (
    <>
      <td
        className={`px-3 py-2 text-right font-medium tabular-nums ${id === 'day' ? 'border-l border-zinc-200' : ''}`}
        data-testid={`overview-${id}-${metric.key}`}
      >
        {formatCount(current)}
      </td>
      <td className="px-3 py-2 text-right text-zinc-600 tabular-nums" data-testid={`overview-${id}-${metric.key}-before`}>
        {formatCount(previous)}
      </td>
      <td
        className={`px-3 py-2 text-right text-xs tabular-nums ${CHANGE_TONES[change.tone]}`}
        data-testid={`overview-${id}-${metric.key}-change`}
      >
        {change.text}
      </td>
    </>
  );
}

/**
 * The last hour against the same hour the day before, and the last 24 hours against the 24
 * before: is today unusual, and did it just become so?
 */
export function WindowComparison({ overview }: { overview: Pick<Overview, 'hour' | 'day'> }) {
  return (
    <section className="card overflow-x-auto p-5" data-testid="overview-comparison">
      <h2 className="text-sm font-semibold">Against the day before</h2>
      <p className="mt-0.5 mb-3 text-xs text-zinc-500">
        The last hour next to the same hour yesterday; the last 24 hours next to the 24 hours before them.
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
          {METRICS.map((metric) => (
            <tr key={metric.key} className="border-b border-zinc-100 last:border-0">
              <th scope="row" className="py-2 pr-3 text-left font-normal" title={metric.help}>
                {metric.label}
              </th>
              <Cells id="hour" comparison={overview.hour} metric={metric} />
              <Cells id="day" comparison={overview.day} metric={metric} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
