import type { RetainedView } from '@/lib/retention/retained-view';
import type { TraceSpan } from '@/lib/traces/build-trace-spans';
import { formatMs } from './format';
import { TraceSpanPayloads } from './trace-span-payloads';

const COLORS: Record<TraceSpan['kind'], string> = {
  validation: 'bg-indigo-500',
  policy: 'bg-violet-500',
  approval_wait: 'bg-amber-400',
  approval_decision: 'bg-amber-600',
  execution: 'bg-emerald-500',
  post_validation: 'bg-sky-500',
  check: 'bg-zinc-500',
};

/**
 * The trace's spans as bars on one time axis. Checks take milliseconds and approvals minutes,
 * so every bar gets a minimum width to stay visible; the exact figure is beside it. Under a
 * span, its arguments or result when they were retained (`retained`, by record seq).
 */
export function TraceTimeline({
  spans,
  durationMs,
  retained = {},
}: {
  spans: TraceSpan[];
  durationMs: number;
  retained?: Record<number, RetainedView | null>;
}) {
  const total = Math.max(durationMs, 0.001);
  return (
    <ol className="card divide-y divide-zinc-100 p-0" data-testid="trace-timeline">
      {spans.map((span, i) => {
        const left = (span.start_ms / total) * 100;
        const width = Math.max((span.duration_ms / total) * 100, 0.6);
        return (
          <li
            key={`${span.kind}-${span.seq ?? span.approval_id}-${i}`}
            className="grid grid-cols-[14rem_1fr_6rem] items-center gap-3 px-4 py-2 text-sm"
            data-testid="trace-span"
            data-kind={span.kind}
          >
            <span className="truncate" title={span.label}>
              {span.seq !== null ? (
                <a href={`#record-${span.seq}`} className="hover:underline">
                  {span.label}
                </a>
              ) : (
                <a href={`#approval-${span.approval_id}`} className="hover:underline">
                  {span.label}
                </a>
              )}
            </span>
            <span className="relative h-3 rounded bg-zinc-100">
              <span
                className={`absolute inset-y-0 rounded ${COLORS[span.kind]}`}
                style={{ left: `${Math.min(left, 99.4)}%`, width: `${Math.min(width, 100 - Math.min(left, 99.4))}%` }}
              />
            </span>
            <span className="text-right text-zinc-700 tabular-nums">
              {span.kind === 'approval_decision' ? '·' : formatMs(span.duration_ms)}
            </span>
            <div className="col-span-3 empty:hidden">
              <TraceSpanPayloads span={span} retained={span.seq !== null ? retained[span.seq] : undefined} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
