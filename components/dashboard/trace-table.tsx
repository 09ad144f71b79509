import Link from 'next/link';
import type { ReactNode } from 'react';
import type { TraceSummary } from '@/lib/traces/trace-summary';
import { DecisionBadge } from './decision-badge';
import { RelativeTime } from '@/components/relative-time';
import { formatMs } from './format';
import { RevealedText } from '@/components/approvals/revealed-text';

/**
 * One row per call: when, which agent key, which tool, what was decided, how long it took. The
 * whole row opens the trace: every cell is a link to it, so a click, a middle-click or "open in
 * new tab" works anywhere on the row. Only the first cell's link is in the tab order and read
 * out; the others repeat it for the pointer.
 */
export function TraceTable({ traces, shadow, fresh }: { traces: TraceSummary[]; shadow: boolean; fresh?: ReadonlySet<string> }) {
  return (
    // data-wide: the page widens to fit it (app/(dashboard)/layout.tsx).
    <div className="card overflow-x-auto" data-wide>
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Time</th>
            <th className="px-4 py-2 font-medium">Agent key</th>
            <th className="px-4 py-2 font-medium">Tool</th>
            <th className="px-4 py-2 font-medium">Decision</th>
            <th className="px-4 py-2 font-medium">{shadow ? 'Shadow would decide' : 'Outcome'}</th>
            <th className="px-4 py-2 text-right font-medium">Duration</th>
            <th className="px-4 py-2 font-medium">Call</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {traces.map((t) => (
            <TraceRow key={`${t.trace_id}-${t.seq}`} trace={t} shadow={shadow} fresh={fresh?.has(t.trace_id) ?? false} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TraceRow({ trace: t, shadow, fresh }: { trace: TraceSummary; shadow: boolean; fresh: boolean }) {
  const href = `/traces/${t.trace_id}`;
  const cell = (content: ReactNode, className = '', title?: string) => (
    <td className="p-0" title={title}>
      <Link href={href} tabIndex={-1} aria-hidden className={`block px-4 py-2 ${className}`}>
        {content}
      </Link>
    </td>
  );
  return (
    <tr
      data-testid="trace-row"
      data-trace-id={t.trace_id}
      data-fresh={fresh ? 'true' : undefined}
      className={`group cursor-pointer focus-within:bg-zinc-50 hover:bg-zinc-50 ${fresh ? 'bg-emerald-50/60' : ''}`}
    >
      <td className="p-0 whitespace-nowrap">
        <Link href={href} className="block px-4 py-2 text-brand group-hover:underline focus-visible:underline">
          <RelativeTime date={t.started_at} />
          {fresh && <span className="ml-2 rounded bg-emerald-100 px-1 text-xs font-medium text-emerald-800">new</span>}
        </Link>
      </td>
      {cell(
        t.api_key_name ??
          (t.api_key_id ? <span className="font-mono text-xs">{t.api_key_id}</span> : <span className="text-zinc-500">—</span>),
        '',
        t.api_key_id ?? undefined,
      )}
      {cell(
        <>
          {/* An unknown tool's name is the agent's, as sent. */}
          <RevealedText text={t.tool} />
          {/* Kept whole: "@1.0.\n0" read as another version. */}
          {t.contract_version && <span className="whitespace-nowrap text-zinc-500">@{t.contract_version}</span>}
        </>,
        'font-mono text-xs [overflow-wrap:anywhere]',
      )}
      {cell(
        <>
          <DecisionBadge decision={t.decision} />
          {t.kind !== 'pre' && <span className="ml-1 text-xs text-zinc-500">{t.kind}</span>}
        </>,
      )}
      {cell(<Outcome trace={t} shadow={shadow} />, 'text-xs text-zinc-600')}
      {cell(
        formatMs(t.duration_ms),
        'text-right whitespace-nowrap tabular-nums',
        `checks ${formatMs(t.checks_ms)}${t.execution_ms !== null ? `, tool ${formatMs(t.execution_ms)}` : ''}`,
      )}
      {cell(t.call_id, 'max-w-32 truncate font-mono text-xs text-zinc-600 xl:max-w-48', t.call_id)}
    </tr>
  );
}

function Outcome({ trace: t, shadow }: { trace: TraceSummary; shadow: boolean }) {
  if (shadow)
    return (
      <>
        {(t.shadow ?? [])
          .filter((s) => s.differs)
          .map((s) => (
            <span key={`${s.kind}-${s.id}-${s.version}`} className="mr-2 inline-flex items-center gap-1">
              <DecisionBadge decision={s.decision} />
              <span className="font-mono">
                {s.kind} {s.id}@{s.version}
                {s.rule ? ` · ${s.rule}` : ''}
              </span>
            </span>
          ))}
      </>
    );
  if (t.records > 1)
    return (
      <span>
        <span className="whitespace-nowrap">
          {t.last_kind} <DecisionBadge decision={t.last_decision} />
        </span>{' '}
        <span className="whitespace-nowrap text-zinc-500">· {t.records} records</span>
      </span>
    );
  // A call checked only after it ran (validate/post without validate/pre) has nothing still to come.
  if (t.kind === 'post') return <span className="text-zinc-500">validate/post only</span>;
  if (t.kind === 'pre' && (t.decision === 'allow' || t.decision === 'transform'))
    return <span className="text-zinc-500">no validate/post yet</span>;
  return <span className="text-zinc-500">—</span>;
}
