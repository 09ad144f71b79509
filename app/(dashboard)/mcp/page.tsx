import type { Metadata } from 'next';
import { publicBaseUrl } from '@/lib/env';
import { listMcpServers } from '@/lib/mcp/servers/list-mcp-servers';
import { can } from '@/lib/tenants/roles';
import { DriftQueue } from '@/components/mcp/drift-queue';
import { RegisterServerForm } from '@/components/mcp/register-server-form';
import { ServerCard } from '@/components/mcp/server-card';
import { StdioSnippet } from '@/components/mcp/stdio-snippet';
import { requireMember } from '../require-member';

export const metadata: Metadata = { title: 'MCP servers' };

export default async function McpServersPage() {
  const member = await requireMember();
  const servers = await listMcpServers({ tenantId: member.tenant.id });
  const canManage = can(member.role, 'manage_keys');
  const baseUrl = publicBaseUrl();
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">MCP servers</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        The upstream MCP servers agents reach through Toolgate&apos;s gateway. Every tool is imported as a draft contract named server.tool
        and refused until an author publishes it; a changed definition is refused until it is reviewed.
      </p>

      <div className="space-y-8">
        <DriftQueue servers={servers} />

        <section aria-labelledby="servers-heading">
          <h2 id="servers-heading" className="mb-3 text-base font-semibold">
            Servers
          </h2>
          {servers.length === 0 ? (
            <div className="card space-y-3 p-6 text-sm text-zinc-700" data-testid="mcp-empty">
              <p className="text-base font-semibold text-zinc-900">No MCP servers yet: register a hosted one, or run the stdio proxy.</p>
              <p>
                {canManage
                  ? 'A hosted server is registered below; agents then connect to its endpoint here.'
                  : 'Admins register hosted servers.'}{' '}
                A server run through the stdio proxy appears here the first time the proxy lists its tools.
              </p>
              <StdioSnippet baseUrl={baseUrl} />
            </div>
          ) : (
            <ul className="space-y-4" data-testid="mcp-server-list">
              {servers.map((server) => (
                <ServerCard key={server.name} server={server} baseUrl={baseUrl} canManage={canManage} />
              ))}
            </ul>
          )}
        </section>

        <section className="card p-5" aria-labelledby="register-heading">
          <h2 id="register-heading" className="text-base font-semibold">
            Register a hosted server
          </h2>
          <p className="mt-1 mb-4 text-sm text-zinc-600">
            An upstream that speaks Streamable HTTP. Toolgate calls it from its own network for every agent connected to the server&apos;s
            endpoint.
          </p>
          {canManage ? (
            <RegisterServerForm />
          ) : (
            <p className="text-sm text-zinc-600" data-testid="mcp-admin-only">
              Only admins register and change MCP servers (their URLs and headers can carry secrets); your role is {member.role}.
            </p>
          )}
        </section>
      </div>
    </>
  );
}
