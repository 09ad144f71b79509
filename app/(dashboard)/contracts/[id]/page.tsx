import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { getDocumentVersionOrThrow } from '@/lib/documents/get-document-version-or-throw';
import { listDocuments } from '@/lib/documents/list-documents';
import { NotFoundError } from '@/lib/errors';
import { can } from '@/lib/tenants/roles';
import { editorText, StudioEditor, studioVersions } from '@/components/studio';
import { requireMember } from '../../require-member';
import { pathSegment } from '../../path-segment';
import { readOnlyReason } from '../studio-props';

type Params = { params: Promise<{ id: string }>; searchParams: Promise<{ version?: string | string[] }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: pathSegment((await params).id) };
}

export default async function ContractEditorPage({ params, searchParams }: Params) {
  const member = await requireMember();
  const id = pathSegment((await params).id);
  const requested = (await searchParams).version;
  const contract = (await listDocuments({ tenantId: member.tenant.id, kind: 'contract' })).find((c) => c.id === id);
  if (!contract) notFound();
  // Without ?version the editor opens the newest version: the draft being worked on, if any.
  const version = (typeof requested === 'string' ? requested : undefined) ?? contract.versions[0]?.version;
  const stored = version
    ? await getDocumentVersionOrThrow({ tenantId: member.tenant.id, kind: 'contract', id, version }).catch((error: unknown) =>
        error instanceof NotFoundError ? null : Promise.reject(error),
      )
    : null;
  const canEdit = can(member.role, 'edit_contracts');
  const schema = toolContractJsonSchema();
  // The text the author saved the version as, else the canonical document in the format's order.
  const opened = stored ? editorText(stored, schema) : null;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/contracts" className="text-zinc-500 hover:text-zinc-900">
          ← Contracts
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-semibold tracking-tight">{contract.id}</h1>
      <p className="mt-1 mb-4 text-sm text-zinc-600">
        {contract.description} <span className="text-zinc-500">· Owner: {contract.owner}</span>
      </p>
      {stored ? (
        <StudioEditor
          // A version opened from the history is a new editing session, not a prop update.
          key={`${contract.id}@${stored.version}`}
          kind="contract"
          apiBase="/api/v1/contracts"
          pageBase="/contracts"
          documentId={contract.id}
          loadedVersion={stored.version}
          initialText={opened?.text ?? ''}
          initialFormat={opened?.format ?? 'json'}
          readOnly={!canEdit}
          readOnlyReason={canEdit ? undefined : readOnlyReason(member.role)}
          jsonSchema={schema}
          // Only a draft can go backwards: a stored published version is compared with itself.
          lintContext={{
            previousVersion:
              stored.status === 'draft' && contract.latestVersion !== stored.version ? (contract.latestVersion ?? undefined) : undefined,
          }}
          versions={studioVersions(contract.versions)}
          servedVersion={contract.latestVersion}
        />
      ) : (
        <div role="alert" className="card p-6 text-sm text-zinc-700">
          <h2 className="mb-1 text-base font-semibold text-zinc-900">Version {version ?? ''} not found</h2>
          <p>
            {contract.id} has no version {version}.{' '}
            <Link className="font-medium text-brand hover:underline" href={`/contracts/${encodeURIComponent(contract.id)}`}>
              Open the newest version
            </Link>
            .
          </p>
        </div>
      )}
    </>
  );
}
