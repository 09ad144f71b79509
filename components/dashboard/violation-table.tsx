import Link from 'next/link';
import type { ViolationView } from '@/lib/violations/list-violations';
import { DecisionBadge } from './decision-badge';
import { formatInstant } from './format';

export function ViolationTable({ violations }: { violations: ViolationView[] }) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Time</th>
            <th className="px-4 py-2 font-medium">Code</th>
            <th className="px-4 py-2 font-medium">Tool</th>
            <th className="px-4 py-2 font-medium">Agent key</th>
            <th className="px-4 py-2 font-medium">Decision</th>
            <th className="px-4 py-2 font-medium">Message</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {violations.map((v) => (
            <tr key={v.id} data-testid="violation-row" className="align-top hover:bg-zinc-50">
              <td className="px-4 py-2 whitespace-nowrap" title={v.created_at}>
                <Link href={`/traces/${v.trace_id}`} className="text-brand hover:underline">
                  {formatInstant(v.created_at)}
                </Link>
              </td>
              <td className="px-4 py-2 font-mono text-xs" title={v.type}>
                {v.code}
              </td>
              <td className="px-4 py-2 font-mono text-xs">{v.tool}</td>
              <td className="px-4 py-2" title={v.api_key_id ?? undefined}>
                {v.api_key_name ?? <span className="text-zinc-400">—</span>}
              </td>
              <td className="px-4 py-2">
                <DecisionBadge decision={v.decision} />
              </td>
              <td className="max-w-md px-4 py-2 text-zinc-700">
                {v.message ?? <span className="text-zinc-400">—</span>}
                {v.path && <span className="ml-1 font-mono text-xs text-zinc-400">{v.path}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
