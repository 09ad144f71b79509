import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { getContractVersionOrThrow } from '@/lib/contracts/get-contract-version-or-throw';
import { listContracts } from '@/lib/contracts/list-contracts';
import { NotFoundError } from '@/lib/errors';
import { can } from '@/lib/tenants/roles';
import { formatDocument, orderLikeSchema, StudioEditor, studioVersions } from '@/components/studio';
import { requireMember } from '../../require-member';
import { readOnlyReason } from '../studio-props';

type Params = { params: Promise<{ tool: string }>; searchParams: Promise<{ version?: string | string[] }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: decodeURIComponent((await params).tool) };
}

export default async function ContractEditorPage({ params, searchParams }: Params) {
  const member = await requireMember();
  const tool = decodeURIComponent((await params).tool);
  const requested = (await searchParams).version;
  const contract = (await listContracts({ tenantId: member.tenant.id })).find((c) => c.tool === tool);
  if (!contract) notFound();
  // Without ?version the editor opens the newest version: the draft being worked on, if any.
  const version = (typeof requested === 'string' ? requested : undefined) ?? contract.versions[0]?.version;
  const stored = version ? await getContractVersionOrThrow({ tenantId: member.tenant.id, tool, version }).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error))) : null;
  const canEdit = can(member.role, 'edit_contracts');
  const schema = toolContractJsonSchema();

  return (
    <>
      <p className="mb-2 text-sm"><Link href="/contracts" className="text-zinc-500 hover:text-zinc-900">← Contracts</Link></p>
      <h1 className="font-mono text-2xl font-semibold tracking-tight">{contract.tool}</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        {contract.description} <span className="text-zinc-400">· Owner: {contract.owner}</span>
      </p>
      {stored ? (
        <StudioEditor
          // A version opened from the history is a new editing session, not a prop update.
          key={`${contract.tool}@${stored.version}`}
          kind="contract"
          apiBase="/api/v1/contracts"
          pageBase="/contracts"
          documentId={contract.tool}
          loadedVersion={stored.version}
          initialText={formatDocument(orderLikeSchema(stored.document, schema), 'json')}
          initialFormat="json"
          readOnly={!canEdit}
          readOnlyReason={canEdit ? undefined : readOnlyReason(member.role)}
          jsonSchema={schema}
          // Only a draft can go backwards: a stored published version is compared with itself.
          lintContext={{ previousVersion: stored.status === 'draft' && contract.latestVersion !== stored.version ? contract.latestVersion ?? undefined : undefined }}
          versions={studioVersions(contract.versions)}
          servedVersion={contract.latestVersion}
        />
      ) : (
        <div role="alert" className="card p-6 text-sm text-zinc-700">
          <h2 className="mb-1 text-base font-semibold text-zinc-900">Version {version ?? ''} not found</h2>
          <p>
            {contract.tool} has no version {version}. <Link className="font-medium text-brand hover:underline" href={`/contracts/${encodeURIComponent(contract.tool)}`}>Open the newest version</Link>.
          </p>
        </div>
      )}
    </>
  );
}
