import Link from 'next/link';
import type { TraceSummary } from '@/lib/traces/list-traces';
import { DecisionBadge } from './decision-badge';
import { formatInstant, formatMs } from './format';

/** One row per call: when, which agent key, which tool, what was decided, how long it took. */
export function TraceTable({ traces, shadow }: { traces: TraceSummary[]; shadow: boolean }) {
  return (
    <div className="card overflow-x-auto">
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
            <tr key={`${t.trace_id}-${t.seq}`} data-testid="trace-row" className="hover:bg-zinc-50">
              <td className="px-4 py-2 whitespace-nowrap" title={t.started_at}>
                <Link href={`/traces/${t.trace_id}`} className="text-brand hover:underline">
                  {formatInstant(t.started_at)}
                </Link>
              </td>
              <td className="px-4 py-2" title={t.api_key_id ?? undefined}>
                {t.api_key_name ??
                  (t.api_key_id ? <span className="font-mono text-xs">{t.api_key_id}</span> : <span className="text-zinc-400">—</span>)}
              </td>
              <td className="px-4 py-2 font-mono text-xs">
                {t.tool}
                {t.contract_version && <span className="text-zinc-400">@{t.contract_version}</span>}
              </td>
              <td className="px-4 py-2">
                <DecisionBadge decision={t.decision} />
                {t.kind !== 'pre' && <span className="ml-1 text-xs text-zinc-500">{t.kind}</span>}
              </td>
              <td className="px-4 py-2 text-xs text-zinc-600">
                {shadow ? (
                  (t.shadow ?? [])
                    .filter((s) => s.differs)
                    .map((s) => (
                      <span key={`${s.kind}-${s.id}-${s.version}`} className="mr-2 inline-flex items-center gap-1">
                        <DecisionBadge decision={s.decision} />
                        <span className="font-mono">
                          {s.kind} {s.id}@{s.version}
                          {s.rule ? ` · ${s.rule}` : ''}
                        </span>
                      </span>
                    ))
                ) : t.records > 1 ? (
                  <span>
                    {t.last_kind} <DecisionBadge decision={t.last_decision} /> <span className="text-zinc-400">· {t.records} records</span>
                  </span>
                ) : t.decision === 'allow' || t.decision === 'transform' ? (
                  <span className="text-zinc-400">no validate/post yet</span>
                ) : (
                  <span className="text-zinc-400">—</span>
                )}
              </td>
              <td
                className="px-4 py-2 text-right whitespace-nowrap tabular-nums"
                title={`checks ${formatMs(t.checks_ms)}${t.execution_ms !== null ? `, tool ${formatMs(t.execution_ms)}` : ''}`}
              >
                {formatMs(t.duration_ms)}
              </td>
              <td className="max-w-48 truncate px-4 py-2 font-mono text-xs text-zinc-600" title={t.call_id}>
                {t.call_id}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
