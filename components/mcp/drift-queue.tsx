import Link from 'next/link';
import type { McpServerView } from '@/lib/mcp/servers/mcp-server-view';
import { formatDate } from '@/components/format-date';
import { RevealedText } from '@/components/approvals/revealed-text';
import { DriftClassBadges } from './badges';
import { driftHref } from './mcp-tools-table';

/** Every drifted tool across the tenant's servers, oldest change first: each is refused until reviewed. */
export function DriftQueue({ servers }: { servers: McpServerView[] }) {
  const drifted = servers
    .flatMap((server) => server.tools.flatMap((tool) => (tool.drift ? [{ server: server.name, tool, drift: tool.drift }] : [])))
    .sort((a, b) => a.drift.seen_at.localeCompare(b.drift.seen_at));
  return (
    <section className="card p-5" aria-labelledby="drift-heading" data-testid="drift-queue">
      <h2 id="drift-heading" className="text-base font-semibold">
        Drift queue{' '}
        <span className="text-zinc-500 tabular-nums" data-testid="drift-count">
          ({drifted.length})
        </span>
      </h2>
      <p className="mt-1 mb-3 text-sm text-zinc-600">
        Tools whose upstream definition changed since it was pinned. Calls of them are refused with AXAG_TOOL_DEFINITION_CHANGED until an
        author reviews the change and accepts it.
      </p>
      {drifted.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="drift-empty">
          No changed definitions waiting for review.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {drifted.map(({ server, tool, drift }) => (
            <li
              key={`${server}/${tool.name}`}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
              data-testid="drift-row"
              data-server={server}
              data-tool={tool.name}
            >
              <div className="min-w-0 space-y-1">
                <p className="font-mono break-all" dir="ltr">
                  {server} / <RevealedText text={tool.name} /> <span className="text-xs text-zinc-500">({tool.contract_id})</span>
                </p>
                <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-500">
                  <DriftClassBadges classes={drift.classes} />
                  <span>seen {formatDate(new Date(drift.seen_at))}</span>
                </p>
              </div>
              <Link href={driftHref(server, tool.name)} className="btn-secondary" data-testid="drift-review">
                Review diff
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
