import 'server-only';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatDate } from '@/components/format-date';
import { StatusBadge } from '@/components/status-badge';
import { editorText, StudioEditor, studioVersions } from '@/components/studio';
import type { DocumentSource } from '@/lib/documents/document-source';
import type { SessionMember } from '@/lib/auth/session';
import { can } from '@/lib/tenants/roles';
import type { StudioDocumentKind } from '@/lib/documents/document-kinds';
import { documentKind } from '@/lib/documents/kinds';
import { listDocuments } from '@/lib/documents/list-documents';
import { getDocumentVersionOrThrow } from '@/lib/documents/get-document-version-or-throw';
import { publishedContractDocuments } from '@/lib/documents/lint-before-publish';
import { STARTER_DOCUMENTS } from '@/lib/documents/starters';
import { policyJsonSchema } from '@/lib/policies/policy-schema';
import { surfaceJsonSchema } from '@/lib/surfaces/surface-schema';
import { NotFoundError } from '@/lib/errors';

/**
 * The list, new and editor pages of policies and surfaces: the same three pages for both
 * kinds, so the route files under app/(dashboard)/policies and /surfaces only pick the kind.
 */

const ABOUT: Record<StudioDocumentKind, { title: string; intro: string; empty: string }> = {
  policy: {
    title: 'Policies',
    intro:
      'Capability and approval policies, argument constraints and ordered rules. Publishing lints the policy and refuses it on any error.',
    empty: 'No policies yet.',
  },
  surface: {
    title: 'Tool surfaces',
    intro:
      "An agent's whole tool surface: its tools, policy, approval policy and system prompt, checked together the way Harn's tool_surface_validate does.",
    empty: 'No tool surfaces yet.',
  },
};

const base = (kind: StudioDocumentKind) => `/${documentKind(kind).many}`;
const schemaOf = (kind: StudioDocumentKind) => (kind === 'policy' ? policyJsonSchema() : surfaceJsonSchema());
const readOnlyReason = (kind: StudioDocumentKind, member: SessionMember) =>
  `Only authors and admins can edit or publish ${documentKind(kind).many}; your role is ${member.role}.`;
const canEdit = (kind: StudioDocumentKind, member: SessionMember) => can(member.role, documentKind(kind).editPermission);

export async function StudioDocumentList({ kind, member }: { kind: StudioDocumentKind; member: SessionMember }) {
  const documents = await listDocuments({ tenantId: member.tenant.id, kind });
  const editable = canEdit(kind, member);
  const about = ABOUT[kind];
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{about.title}</h1>
        {editable && (
          <Link href={`${base(kind)}/new`} className="btn-primary">
            New {documentKind(kind).one}
          </Link>
        )}
      </div>
      <p className="mt-1 mb-6 text-sm text-zinc-600">{about.intro}</p>
      {documents.length === 0 ? (
        <div className="card p-8 text-sm text-zinc-700">
          <h2 className="mb-2 text-base font-semibold text-zinc-900">{about.empty}</h2>
          {editable ? (
            <p>
              <Link href={`${base(kind)}/new`} className="font-medium text-brand hover:underline">
                Start one from an example
              </Link>
              , or send a document to <code className="rounded bg-zinc-100 px-1">POST /api/v1/{documentKind(kind).many}</code> with an{' '}
              <em>author</em> key.
            </p>
          ) : (
            <p>Authors and admins create them here or through the API; they will be listed here.</p>
          )}
        </div>
      ) : (
        <ul className="space-y-4">
          {documents.map((d) => (
            <li key={d.id} className="card p-5">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-mono text-base font-semibold">
                  <Link href={`${base(kind)}/${encodeURIComponent(d.id)}`} className="hover:underline">
                    {d.id}
                  </Link>
                </h2>
                <p className="text-sm text-zinc-600">
                  {d.latestVersion ? (
                    <>
                      Runtime serves <span className="font-mono font-medium text-zinc-900">v{d.latestVersion}</span>
                    </>
                  ) : (
                    <span className="text-amber-700">Not served: no published version</span>
                  )}
                </p>
              </div>
              {d.description && <p className="mt-1 text-sm text-zinc-700">{d.description}</p>}
              <table className="mt-4 w-full text-left text-sm">
                <thead className="text-xs text-zinc-500 uppercase">
                  <tr>
                    <th className="py-1 font-medium">Version</th>
                    <th className="font-medium">Status</th>
                    <th className="font-medium">Published</th>
                    <th className="font-medium">Note</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100">
                  {d.versions.map((v) => (
                    <tr key={v.version}>
                      <td className="py-1.5 font-mono">
                        <Link
                          href={`${base(kind)}/${encodeURIComponent(d.id)}?version=${encodeURIComponent(v.version)}`}
                          className="hover:underline"
                        >
                          {v.version}
                        </Link>
                      </td>
                      <td>
                        <StatusBadge status={v.status} />
                      </td>
                      <td className="text-zinc-600" title={v.publishedAt?.toISOString()}>
                        {formatDate(v.publishedAt)}
                      </td>
                      <td className="text-zinc-600">{v.changeNote ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * What the editor opens with: the text the author saved the version as (`source`), else the
 * canonical document in the format's order. A surface's prompt has its own pane.
 */
async function editorProps(
  kind: StudioDocumentKind,
  member: SessionMember,
  stored: { document: Record<string, unknown>; source: DocumentSource | null },
) {
  const schema = schemaOf(kind);
  // Surfaces: the tools' contracts. Policies: limits and history conditions read argument paths
  // their tools' contracts declare.
  const contracts = await publishedContractDocuments(member.tenant.id);
  if (kind === 'surface') {
    const system = stored.document.system;
    return {
      schema,
      ...editorText(stored, schema, ['system']),
      prompt: { field: 'system', initialText: typeof system === 'string' ? system : '' },
      contracts,
    };
  }
  return { schema, ...editorText(stored, schema), prompt: undefined, contracts };
}

export async function NewStudioDocument({ kind, member }: { kind: StudioDocumentKind; member: SessionMember }) {
  const label = documentKind(kind).one;
  const heading = <h1 className="text-2xl font-semibold tracking-tight">New {label}</h1>;
  if (!canEdit(kind, member)) {
    return (
      <>
        {heading}
        <p className="card mt-4 p-4 text-sm text-zinc-600">{readOnlyReason(kind, member)}</p>
      </>
    );
  }
  const props = await editorProps(kind, member, { document: STARTER_DOCUMENTS[kind], source: null });
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={base(kind)} className="text-zinc-500 hover:text-zinc-900">
          ← {ABOUT[kind].title}
        </Link>
      </p>
      {heading}
      <p className="mt-1 mb-4 text-sm text-zinc-600">
        From an example {label}. Set <code className="rounded bg-zinc-100 px-1">id</code>, edit, then save a draft. Nothing is stored until
        you save.
      </p>
      <StudioEditor
        kind={kind}
        apiBase={`/api/v1/${documentKind(kind).many}`}
        pageBase={base(kind)}
        initialText={props.text}
        initialFormat={props.format}
        readOnly={false}
        jsonSchema={props.schema}
        lintContext={{ contracts: props.contracts }}
        versions={[]}
        servedVersion={null}
        prompt={props.prompt}
      />
    </>
  );
}

export async function StudioDocumentEditor({
  kind,
  member,
  id,
  requestedVersion,
}: {
  kind: StudioDocumentKind;
  member: SessionMember;
  id: string;
  requestedVersion?: string;
}) {
  const summary = (await listDocuments({ tenantId: member.tenant.id, kind })).find((d) => d.id === id);
  if (!summary) notFound();
  const version = requestedVersion ?? summary.versions[0]?.version;
  const stored = version
    ? await getDocumentVersionOrThrow({ tenantId: member.tenant.id, kind, id, version }).catch((error: unknown) =>
        error instanceof NotFoundError ? null : Promise.reject(error),
      )
    : null;
  const editable = canEdit(kind, member);
  const document =
    stored && typeof stored.document === 'object' && stored.document !== null ? (stored.document as Record<string, unknown>) : {};
  const props = await editorProps(kind, member, { document, source: stored?.source ?? null });
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={base(kind)} className="text-zinc-500 hover:text-zinc-900">
          ← {ABOUT[kind].title}
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-semibold tracking-tight">{summary.id}</h1>
      {summary.description && <p className="mt-1 mb-4 text-sm text-zinc-600">{summary.description}</p>}
      {stored ? (
        <StudioEditor
          key={`${summary.id}@${stored.version}`}
          kind={kind}
          apiBase={`/api/v1/${documentKind(kind).many}`}
          pageBase={base(kind)}
          documentId={summary.id}
          loadedVersion={stored.version}
          initialText={props.text}
          initialFormat={props.format}
          readOnly={!editable}
          readOnlyReason={editable ? undefined : readOnlyReason(kind, member)}
          jsonSchema={props.schema}
          lintContext={{
            contracts: props.contracts,
            previousVersion:
              stored.status === 'draft' && summary.latestVersion !== stored.version ? (summary.latestVersion ?? undefined) : undefined,
          }}
          versions={studioVersions(summary.versions)}
          servedVersion={summary.latestVersion}
          prompt={props.prompt}
        />
      ) : (
        <div role="alert" className="card p-6 text-sm text-zinc-700">
          <h2 className="mb-1 text-base font-semibold text-zinc-900">Version {version ?? ''} not found</h2>
          <p>
            {summary.id} has no version {version}.{' '}
            <Link className="font-medium text-brand hover:underline" href={`${base(kind)}/${encodeURIComponent(summary.id)}`}>
              Open the newest version
            </Link>
            .
          </p>
        </div>
      )}
    </>
  );
}
