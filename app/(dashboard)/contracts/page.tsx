import type { Metadata } from 'next';
import Link from 'next/link';
import { listDocuments, type DocumentSummary } from '@/lib/documents/list-documents';
import { formatDate } from '@/components/format-date';
import { StatusBadge } from '@/components/status-badge';
import { can } from '@/lib/tenants/roles';
import { requireMember } from '../require-member';
import { TENANT_FIELD } from '@/lib/auth/page-tenant';

export const metadata: Metadata = { title: 'Contracts' };

export default async function ContractsPage() {
  const member = await requireMember();
  const contracts = await listDocuments({ tenantId: member.tenant.id, kind: 'contract' });
  const canEdit = can(member.role, 'edit_contracts');
  return (
    <>
      <div className="flex items-start justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Contracts</h1>
        {canEdit && (
          <div className="flex gap-2">
            <Link href="/contracts/import" className="btn-secondary">
              Import tools
            </Link>
            <Link href="/contracts/new" className="btn-primary">
              New contract
            </Link>
          </div>
        )}
      </div>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Each contract describes one tool an agent may call. The runtime validates calls against the version marked as served.
      </p>
      {contracts.length === 0 ? (
        <EmptyState canEdit={canEdit} />
      ) : (
        <ul className="space-y-4">
          {contracts.map((c) => (
            <ContractCard key={c.id} contract={c} tenantId={member.tenant.id} />
          ))}
        </ul>
      )}
    </>
  );
}

function ContractCard({ contract, tenantId }: { contract: DocumentSummary; tenantId: string }) {
  return (
    <li className="card p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-mono text-base font-semibold">
          <Link href={`/contracts/${encodeURIComponent(contract.id)}`} className="hover:underline">
            {contract.id}
          </Link>
        </h2>
        <p className="text-sm text-zinc-600">
          {contract.latestVersion ? (
            <>
              Runtime serves <span className="font-mono font-medium text-zinc-900">v{contract.latestVersion}</span>
            </>
          ) : (
            <span className="text-amber-700">Not served: no published version</span>
          )}
          {contract.deprecatedAt && (
            <span className="ml-2">
              <StatusBadge status="deprecated" />
            </span>
          )}
        </p>
      </div>
      <p className="mt-1 text-sm text-zinc-700">{contract.description}</p>
      <p className="mt-1 text-xs text-zinc-500">Owner: {contract.owner}</p>
      <table className="mt-4 w-full text-left text-sm">
        <thead className="text-xs text-zinc-500 uppercase">
          <tr>
            <th className="py-1 font-medium">Version</th>
            <th className="font-medium">Status</th>
            <th className="font-medium">Content hash</th>
            <th className="font-medium">Published</th>
            <th className="font-medium">Note</th>
            <th className="font-medium">Export</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {contract.versions.map((v) => (
            <tr key={v.version}>
              <td className="py-1.5 font-mono">
                <Link
                  href={`/contracts/${encodeURIComponent(contract.id)}?version=${encodeURIComponent(v.version)}`}
                  className="hover:underline"
                >
                  {v.version}
                </Link>
              </td>
              <td>
                <StatusBadge status={v.status} />
              </td>
              <td className="font-mono text-xs text-zinc-600" title={v.contentHash}>
                {v.contentHash.slice(0, 12)}
              </td>
              <td className="text-zinc-600" title={v.publishedAt?.toISOString()}>
                {formatDate(v.publishedAt)}
              </td>
              <td className="text-zinc-600">{v.changeNote ?? ''}</td>
              <td className="text-xs">
                {v.status !== 'draft' && (
                  <a
                    className="text-brand hover:underline"
                    href={`/api/v1/contracts/${encodeURIComponent(contract.id)}/versions/${encodeURIComponent(v.version)}/export?format=mcp&${TENANT_FIELD}=${encodeURIComponent(tenantId)}`}
                    title="This version as an MCP tool definition (JSON)"
                  >
                    MCP tool
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </li>
  );
}

function EmptyState({ canEdit }: { canEdit: boolean }) {
  return (
    <div className="card p-8 text-sm text-zinc-700">
      <h2 className="mb-2 text-base font-semibold text-zinc-900">No contracts yet</h2>
      {canEdit ? (
        <p>
          <Link href="/contracts/new" className="font-medium text-brand hover:underline">
            Create one in the studio
          </Link>{' '}
          from a template (a read-only query, an external write needing confirmation, a destructive action needing approval), or send a
          contract document to <code className="rounded bg-zinc-100 px-1">POST /api/v1/contracts</code> with an <em>author</em> key.
        </p>
      ) : (
        <p>Authors and admins create contracts in the studio or through the API; they will be listed here.</p>
      )}
      <p className="mt-2">
        The format is described in <code className="rounded bg-zinc-100 px-1">docs/contracts.md</code> in Toolgate&apos;s repository, and
        the API at <code className="rounded bg-zinc-100 px-1">GET /api/v1/openapi.json</code>.
      </p>
    </div>
  );
}
