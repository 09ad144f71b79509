import type { Metadata } from 'next';
import Link from 'next/link';
import { AppError } from '@/lib/errors';
import { getMcpDrift, type McpDriftView } from '@/lib/mcp/tools/accept-mcp-drift';
import { can } from '@/lib/tenants/roles';
import { formatDate } from '@/components/format-date';
import { AcceptDriftForm } from '@/components/mcp/accept-drift-form';
import { DriftClassBadge, DriftClassBadges } from '@/components/mcp/badges';
import { DriftDiff } from '@/components/mcp/drift-diff';
import { RevealedText } from '@/components/approvals/revealed-text';
import { requireMember } from '../../../../../require-member';
import { pathSegment } from '../../../../../path-segment';

type Params = { params: Promise<{ server: string; tool: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { server, tool } = await params;
  return { title: `Drift: ${pathSegment(server)}/${pathSegment(tool)}` };
}

export default async function McpDriftPage({ params }: Params) {
  const member = await requireMember();
  const server = pathSegment((await params).server);
  const tool = pathSegment((await params).tool);
  let drift: McpDriftView | null = null;
  let missing: string | null = null;
  try {
    drift = await getMcpDrift({ tenantId: member.tenant.id, server, tool });
  } catch (error) {
    if (!(error instanceof AppError && error.status === 404)) throw error;
    // Not-found messages end without a full stop ("… was not found"); a sentence follows here.
    missing = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  }
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/mcp" className="text-zinc-500 hover:text-zinc-900">
          ← MCP servers
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-semibold tracking-tight break-all">
        <RevealedText text={server} /> / <RevealedText text={tool} />
      </h1>
      {!drift ? (
        <div role="alert" className="card mt-6 p-6 text-sm text-zinc-700" data-testid="drift-missing">
          <h2 className="mb-1 text-base font-semibold text-zinc-900">No change to review</h2>
          <p>
            {missing} It may have been accepted already, or the upstream went back to the pinned definition.{' '}
            <Link href="/mcp" className="font-medium text-brand hover:underline">
              Back to MCP servers
            </Link>
          </p>
        </div>
      ) : (
        <DriftReview drift={drift} canAccept={can(member.role, 'edit_contracts')} role={member.role} />
      )}
    </>
  );
}

function DriftReview({ drift, canAccept, role }: { drift: McpDriftView; canAccept: boolean; role: string }) {
  return (
    <div className="mt-1 space-y-6">
      <p className="text-sm text-zinc-600">
        The upstream changed this tool&apos;s definition (seen {formatDate(new Date(drift.seen_at))}). Calls of{' '}
        <Link href={`/contracts/${encodeURIComponent(drift.contract_id)}`} className="font-mono text-brand hover:underline">
          {drift.contract_id}
        </Link>{' '}
        are refused until the change is accepted. <DriftClassBadges classes={drift.classes} />
      </p>

      <section className="card p-5" aria-labelledby="findings-heading">
        <h2 id="findings-heading" className="mb-3 text-base font-semibold">
          What changed
        </h2>
        <ul className="space-y-2 text-sm" data-testid="drift-findings">
          {drift.findings.map((finding, index) => (
            <li key={index} className="flex flex-wrap items-baseline gap-2" data-testid="drift-finding">
              <DriftClassBadge value={finding.class} />
              <code className="font-mono text-xs break-all text-zinc-500">{finding.path}</code>
              <span className="min-w-0">{finding.message}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="card p-5" aria-labelledby="diff-heading">
        <h2 id="diff-heading" className="mb-1 text-base font-semibold">
          Definition diff
        </h2>
        <p className="mb-3 text-xs text-zinc-500">
          Pinned <code className="font-mono">{drift.pinned_hash.slice(0, 12)}</code> → upstream{' '}
          <code className="font-mono" data-testid="drift-upstream-hash" title={drift.upstream_hash}>
            {drift.upstream_hash.slice(0, 12)}
          </code>
        </p>
        <DriftDiff lines={drift.diff} />
      </section>

      <section className="card p-5" aria-labelledby="accept-heading">
        <h2 id="accept-heading" className="mb-1 text-base font-semibold">
          Accept
        </h2>
        <p className="mb-3 text-sm text-zinc-600">
          Accepting pins the upstream&apos;s new definition: calls go through again, checked against the published contract as before. The
          acceptance is recorded in the evidence chain. If the tool now does something the contract does not describe, change and publish
          the contract first.
        </p>
        {canAccept ? (
          <AcceptDriftForm server={drift.server} tool={drift.tool} hash={drift.upstream_hash} contractId={drift.contract_id} />
        ) : (
          <p className="text-sm text-zinc-600" data-testid="drift-read-only">
            Only authors and admins accept definition changes; your role is {role}.
          </p>
        )}
      </section>
    </div>
  );
}
