import type { Metadata } from 'next';
import Link from 'next/link';
import { can } from '@/lib/tenants/roles';
import { ImportContractsForm } from '@/components/import-contracts-form';
import { requireMember } from '../../require-member';
import { readOnlyReason } from '../studio-props';

export const metadata: Metadata = { title: 'Import tools' };

export default async function ImportContractsPage() {
  const member = await requireMember();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/contracts" className="text-zinc-500 hover:text-zinc-900">
          ← Contracts
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">Import tools</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Paste an MCP <code className="rounded bg-zinc-100 px-1">tools/list</code> result, or OpenAI or Anthropic tool definitions, to draft
        one contract per tool. MCP&apos;s hints become the side-effect level and idempotency, flagged for review: MCP calls them untrusted.
      </p>
      {can(member.role, 'edit_contracts') ? (
        <ImportContractsForm />
      ) : (
        <p className="card p-4 text-sm text-zinc-600">{readOnlyReason(member.role)}</p>
      )}
    </>
  );
}
