import Link from 'next/link';
import type { McpToolView } from '@/lib/mcp/servers/mcp-server-view';
import { formatDate } from '@/components/format-date';
import { RevealedText } from '@/components/approvals/revealed-text';
import { DriftClassBadges, ToolStatusBadge } from './badges';

export function driftHref(server: string, tool: string): string {
  return `/mcp/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/drift`;
}

/**
 * One server's tools as the gateway pinned them, each with where its contract stands. Tool names
 * and import notes are the upstream's words: drawn with hidden and direction-changing characters
 * as visible badges, so `bidi\u202Etxt.exe` does not show as "bidiexe.txt".
 */
export function McpToolsTable({ server, tools }: { server: string; tools: McpToolView[] }) {
  if (tools.length === 0)
    return (
      <p className="text-sm text-zinc-600" data-testid="mcp-tools-empty">
        No tools seen yet. The gateway imports them the first time an agent lists this server&apos;s tools.
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500 uppercase">
          <tr>
            <th className="py-1 pr-3 font-medium">Tool</th>
            <th className="pr-3 font-medium">Contract</th>
            <th className="pr-3 font-medium">Status</th>
            <th className="pr-3 font-medium">Pinned</th>
            <th className="font-medium">Review notes</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {tools.map((tool) => (
            <tr key={tool.name} data-testid="mcp-tool-row" data-tool={tool.name} className="align-top">
              <td className="py-1.5 pr-3 font-mono break-all" dir="ltr">
                <RevealedText text={tool.name} />
              </td>
              <td className="py-1.5 pr-3 font-mono">
                <Link href={`/contracts/${encodeURIComponent(tool.contract_id)}`} className="text-brand hover:underline">
                  {tool.contract_id}
                </Link>
                {tool.published_version && <span className="ml-1 text-xs text-zinc-500">v{tool.published_version}</span>}
              </td>
              <td className="py-1.5 pr-3">
                <ToolStatusBadge status={tool.status} />
                {tool.drift && (
                  <div className="mt-1 flex flex-wrap items-center gap-1">
                    <DriftClassBadges classes={tool.drift.classes} />
                    <Link href={driftHref(server, tool.name)} className="text-xs font-medium text-brand hover:underline">
                      Review change
                    </Link>
                  </div>
                )}
              </td>
              <td className="py-1.5 pr-3 whitespace-nowrap text-zinc-600" title={tool.pinned_at}>
                <span className="font-mono text-xs" title={tool.pinned_hash}>
                  {tool.pinned_hash.slice(0, 10)}
                </span>
                <span className="block text-xs">{formatDate(new Date(tool.pinned_at))}</span>
              </td>
              <td className="py-1.5 text-xs text-zinc-600">
                {tool.import_notes.length === 0 ? (
                  '—'
                ) : (
                  <details>
                    <summary className="cursor-pointer select-none">
                      {tool.import_notes.length} note{tool.import_notes.length === 1 ? '' : 's'}
                    </summary>
                    <ul className="mt-1 max-w-md list-disc space-y-0.5 pl-4">
                      {tool.import_notes.map((note, index) => (
                        <li key={index}>
                          <code>
                            <RevealedText text={note.path} />
                          </code>{' '}
                          <RevealedText text={note.message} />
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
