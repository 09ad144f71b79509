import Link from 'next/link';
import type { ViolationView } from '@/lib/violations/list-violations';
import { VIOLATION_KIND_LABELS, violationKind } from '@/lib/violations/violation-kinds';
import { DecisionBadge } from './decision-badge';
import { ExpandableText } from './expandable-text';
import { RelativeTime } from '@/components/relative-time';
import { RevealedText } from '@/components/approvals/revealed-text';

/**
 * One row per violation. The code and its message share the widest column, so a message reads
 * as a few lines of prose (a long one is clamped with "Show all"); tool and key share one.
 */
export function ViolationTable({ violations }: { violations: ViolationView[] }) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Time</th>
            <th className="w-full px-4 py-2 font-medium">Code and message</th>
            <th className="px-4 py-2 font-medium whitespace-nowrap">Tool and key</th>
            <th className="px-4 py-2 font-medium">Decision</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {violations.map((v) => (
            <tr key={v.id} data-testid="violation-row" className="align-top hover:bg-zinc-50">
              <td className="px-4 py-2 whitespace-nowrap">
                <Link href={`/traces/${v.trace_id}`} className="text-brand hover:underline">
                  <RelativeTime date={v.created_at} />
                </Link>
              </td>
              <td className="min-w-64 px-4 py-2" data-testid="violation-message">
                <p className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-mono text-xs font-medium break-all text-zinc-900" title={v.type} data-testid="violation-code">
                    {v.code}
                  </span>
                  <span className="text-xs text-zinc-500">{VIOLATION_KIND_LABELS[violationKind(v)].label}</span>
                  {v.path && <span className="font-mono text-xs break-all text-zinc-500">at {v.path}</span>}
                </p>
                {v.message ? (
                  <ExpandableText text={v.message} className="mt-0.5 text-zinc-700" />
                ) : (
                  <span className="text-zinc-500">no message</span>
                )}
              </td>
              <td className="max-w-56 min-w-36 px-4 py-2">
                <span className="block font-mono text-xs [overflow-wrap:anywhere]" data-testid="violation-tool">
                  {/* An unknown tool's name is the agent's, as sent. */}
                  <RevealedText text={v.tool} />
                </span>
                <span className="block text-xs text-zinc-500" title={v.api_key_id ?? undefined}>
                  {v.api_key_name ?? <span className="text-zinc-500">no key</span>}
                </span>
              </td>
              <td className="px-4 py-2">
                <DecisionBadge decision={v.decision} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
