import type { Metadata } from 'next';
import Link from 'next/link';
import { CONTRACT_TEMPLATES, type ContractTemplate } from '@/lib/contracts/templates';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { can } from '@/lib/tenants/roles';
import { formatDocument, orderLikeSchema, StudioEditor } from '@/components/studio';
import { requireMember } from '../../require-member';
import { readOnlyReason } from '../studio-props';

export const metadata: Metadata = { title: 'New contract' };

/** A blank contract still has every required field, so the problems panel starts empty. */
const BLANK: ContractTemplate = {
  id: 'blank',
  title: 'Blank contract',
  description: 'Only the required fields; you describe everything else.',
  document: {
    id: 'team.tool_name',
    version: '0.1.0',
    description: 'What the tool does, written for the model that calls it.',
    owner: 'team-name',
    input: { type: 'object', additionalProperties: false, properties: {} },
    annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
  },
};

type Params = { searchParams: Promise<{ template?: string | string[] }> };

export default async function NewContractPage({ searchParams }: Params) {
  const member = await requireMember();
  const chosenId = (await searchParams).template;
  const templates = [...CONTRACT_TEMPLATES, BLANK];
  const chosen = templates.find((t) => t.id === chosenId);

  if (!can(member.role, 'edit_contracts')) {
    return (
      <>
        <Heading />
        <p className="card mt-4 p-4 text-sm text-zinc-600">{readOnlyReason(member.role)}</p>
      </>
    );
  }

  if (!chosen) {
    return (
      <>
        <Heading />
        <p className="mt-1 mb-6 text-sm text-zinc-600">
          Start from a template that matches the tool&apos;s risk, or from a blank contract. Nothing is saved until you save a draft.
        </p>
        <ul className="grid gap-4 sm:grid-cols-2">
          {templates.map((t) => (
            <li key={t.id}>
              <Link
                href={`/contracts/new?template=${encodeURIComponent(t.id)}`}
                className="card block h-full p-5 hover:border-zinc-400"
                data-testid="contract-template"
              >
                <h2 className="text-base font-semibold">{t.title}</h2>
                <p className="mt-1 text-sm text-zinc-600">{t.description}</p>
                {t !== BLANK && <p className="mt-2 font-mono text-xs text-zinc-500">{String(t.document.id ?? '')}</p>}
              </Link>
            </li>
          ))}
        </ul>
      </>
    );
  }

  const schema = toolContractJsonSchema();
  return (
    <>
      <Heading />
      <p className="mt-1 mb-4 text-sm text-zinc-600">
        From the template <span className="font-medium text-zinc-900">{chosen.title}</span>. Set{' '}
        <code className="rounded bg-zinc-100 px-1">id</code> to your tool&apos;s name, then save a draft.{' '}
        <Link href="/contracts/new" className="font-medium text-brand hover:underline">
          Choose another template
        </Link>
      </p>
      <StudioEditor
        kind="contract"
        apiBase="/api/v1/contracts"
        pageBase="/contracts"
        initialText={formatDocument(orderLikeSchema(chosen.document, schema), 'json')}
        initialFormat="json"
        readOnly={false}
        jsonSchema={schema}
        versions={[]}
        servedVersion={null}
      />
    </>
  );
}

function Heading() {
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/contracts" className="text-zinc-500 hover:text-zinc-900">
          ← Contracts
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">New contract</h1>
    </>
  );
}
