import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTraceOrThrow, type TraceDetail } from '@/lib/traces/get-trace-or-throw';
import { NotFoundError } from '@/lib/errors';
import { TraceTimeline } from '@/components/dashboard/trace-timeline';
import { TraceRecordCard } from '@/components/dashboard/trace-record-card';
import { TraceApprovalCard } from '@/components/dashboard/trace-approval-card';
import { TraceOutcomeLine } from '@/components/dashboard/trace-outcome';
import { formatInstant, formatMs } from '@/components/dashboard/format';
import { requireMember } from '../../require-member';

type Params = { params: Promise<{ traceId: string }> };

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Trace ${(await params).traceId.slice(0, 12)}` };
}

export default async function TracePage({ params }: Params) {
  const member = await requireMember();
  const traceId = (await params).traceId;
  let trace: TraceDetail;
  try {
    trace = await getTraceOrThrow({ tenantId: member.tenant.id, traceId });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/traces" className="text-zinc-500 hover:text-zinc-900">
          ← Traces
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-semibold tracking-tight">{trace.tool}</h1>
      <dl className="mt-2 mb-6 grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-500">Outcome</dt>
        <dd>
          <TraceOutcomeLine outcome={trace.outcome} />
        </dd>
        <dt className="text-zinc-500">Call</dt>
        <dd className="font-mono text-xs" data-testid="trace-call-id">
          {trace.call_id}
        </dd>
        <dt className="text-zinc-500">Trace</dt>
        <dd className="font-mono text-xs">{trace.trace_id}</dd>
        <dt className="text-zinc-500">Started</dt>
        <dd>{formatInstant(trace.started_at)}</dd>
        <dt className="text-zinc-500">Duration</dt>
        <dd>
          {formatMs(trace.duration_ms)}{' '}
          <span className="text-zinc-500">
            · {trace.records.length} evidence records
            {trace.approvals.length > 0 ? `, ${trace.approvals.length} approval${trace.approvals.length > 1 ? 's' : ''}` : ''}
          </span>
        </dd>
      </dl>
      <h2 className="mb-2 text-lg font-semibold">Timeline</h2>
      <TraceTimeline
        spans={trace.spans}
        durationMs={trace.duration_ms}
        retained={Object.fromEntries(trace.records.map((r) => [r.seq, r.retained]))}
      />
      {trace.truncated && (
        <p className="mt-2 text-sm text-amber-700">This call_id has more records than one page shows; the first ones are listed.</p>
      )}
      {trace.approvals.length > 0 && (
        <>
          <h2 className="mt-8 mb-2 text-lg font-semibold">Approvals</h2>
          <div className="space-y-3">
            {trace.approvals.map((a) => (
              <TraceApprovalCard key={a.id} approval={a} />
            ))}
          </div>
        </>
      )}
      <h2 className="mt-8 mb-2 text-lg font-semibold">Evidence</h2>
      <div className="space-y-3">
        {trace.records.map((r) => (
          <TraceRecordCard key={r.id} record={r} people={trace.people} />
        ))}
      </div>
    </>
  );
}
