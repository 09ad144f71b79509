import type { McpServerView } from '@/lib/mcp/servers/mcp-server-view';
import { formatDate } from '@/components/format-date';
import { DeleteServerButton } from './delete-server-button';
import { McpToolsTable } from './mcp-tools-table';
import { ServerSettingsForm } from './server-settings-form';
import { StdioSnippet } from './stdio-snippet';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** One MCP server: how agents reach it, its settings, and its tools with their contracts. */
export function ServerCard({ server, baseUrl, canManage }: { server: McpServerView; baseUrl: string; canManage: boolean }) {
  const hosted = server.transport === 'http';
  return (
    <li className="card space-y-4 p-5" data-testid="mcp-server" data-server={server.name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 font-mono text-base font-semibold">
            {server.name}
            <span
              className={`rounded-full px-2 py-0.5 font-sans text-xs font-medium ring-1 ring-inset ${hosted ? 'bg-indigo-50 text-indigo-800 ring-indigo-200' : 'bg-zinc-100 text-zinc-700 ring-zinc-200'}`}
              data-testid="mcp-transport"
            >
              {hosted ? 'hosted' : 'stdio proxy'}
            </span>
          </h3>
          <p className="mt-0.5 text-xs text-zinc-500">
            {hosted ? 'Registered' : 'First reported'} {formatDate(new Date(server.created_at))} · tools last listed{' '}
            {server.last_seen_at ? formatDate(new Date(server.last_seen_at)) : 'never'}
          </p>
        </div>
        {canManage && <DeleteServerButton name={server.name} />}
      </div>

      {hosted ? (
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
          <dt className="text-zinc-500">Agent endpoint</dt>
          <dd>
            <code className="font-mono text-xs break-all select-all" data-testid="mcp-endpoint">
              {`${baseUrl}${server.endpoint ?? ''}`}
            </code>
            <span className="block text-xs text-zinc-500">Streamable HTTP, with the agent&apos;s Toolgate API key as Bearer.</span>
          </dd>
          <dt className="text-zinc-500">Upstream</dt>
          <dd className="font-mono text-xs break-all" data-testid="mcp-upstream-url">
            {server.url}
          </dd>
          <dt className="text-zinc-500">Auth header</dt>
          <dd className="text-xs" data-testid="mcp-auth-header">
            {server.auth_header_name ? (
              <>
                <span className="font-mono">{server.auth_header_name}</span>{' '}
                <span className="text-zinc-500">(value stored encrypted, not shown)</span>
              </>
            ) : (
              <span className="text-zinc-500">none</span>
            )}
          </dd>
        </dl>
      ) : (
        <StdioSnippet baseUrl={baseUrl} server={server.name} />
      )}

      <p className="text-xs text-zinc-600" data-testid="mcp-settings-summary">
        Lists unpublished tools: {yesNo(server.list_unpublished)} · auto-accepts cosmetic changes: {yesNo(server.auto_accept_cosmetic)} ·
        waits {server.approval_wait_seconds} s for an approval
      </p>

      <McpToolsTable server={server.name} tools={server.tools} />

      {canManage && (
        <details className="rounded-md border border-zinc-200 p-3">
          <summary className="cursor-pointer text-sm font-medium select-none" data-testid="mcp-edit-toggle">
            Edit settings
          </summary>
          <div className="mt-3">
            <ServerSettingsForm server={server} />
          </div>
        </details>
      )}
    </li>
  );
}
