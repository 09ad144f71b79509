import Link from 'next/link';
import type { TraceRecordView } from '@/lib/traces/get-trace-or-throw';
import { DecisionBadge } from './decision-badge';
import { formatInstant, formatMs, short } from './format';
import { RetainedPayloads } from './retained-payloads';
import { withActorLabels } from '@/lib/tenants/actor-text';

const KIND_LABELS: Record<string, string> = {
  pre: 'validate/pre',
  post: 'validate/post',
  approval_decision: 'approval decision',
  pipeline: 'pipeline check',
  manifest: 'manifest check',
};

function contractHref(tool: string, version: string) {
  return `/contracts/${encodeURIComponent(tool)}?version=${encodeURIComponent(version)}`;
}

function policyHref(id: string, version: string | null) {
  return `/policies/${encodeURIComponent(id)}${version ? `?version=${encodeURIComponent(version)}` : ''}`;
}

/** One evidence record: what was decided and why, with the contract and policy one click away. */
export function TraceRecordCard({ record: r, people = {} }: { record: TraceRecordView; people?: Record<string, string> }) {
  const detail = r.policy?.detail ?? null;
  return (
    <article id={`record-${r.seq}`} className="card scroll-mt-4 p-4 text-sm" data-testid="trace-record" data-kind={r.kind}>
      <header className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{KIND_LABELS[r.kind] ?? r.kind}</span>
        <DecisionBadge decision={r.decision} />
        <span className="text-zinc-500">
          seq {r.seq} · {formatInstant(r.created_at)} · checks {formatMs(r.duration_ms)}
          {r.execution_ms !== null ? ` · tool ran ${formatMs(r.execution_ms)}` : ''}
        </span>
        {r.shadow_differs && (
          <span className="rounded bg-violet-50 px-1.5 py-0.5 text-xs font-medium text-violet-800 ring-1 ring-violet-200">
            shadow differs
          </span>
        )}
      </header>
      <dl className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1">
        <dt className="text-zinc-500">Contract</dt>
        <dd>
          {r.contract_version ? (
            <Link
              className="font-mono text-xs text-brand hover:underline"
              href={contractHref(r.tool, r.contract_version)}
              data-testid="record-contract-link"
            >
              {r.tool}@{r.contract_version}
            </Link>
          ) : (
            <span className="font-mono text-xs">{r.tool}</span>
          )}
          {r.contract_hash && (
            <span className="ml-2 font-mono text-xs text-zinc-500" title={r.contract_hash}>
              {short(r.contract_hash)}
            </span>
          )}
        </dd>
        {r.policy && (
          <>
            <dt className="text-zinc-500">Policy</dt>
            <dd>
              {r.policy.id ? (
                <Link
                  className="font-mono text-xs text-brand hover:underline"
                  href={policyHref(r.policy.id, r.policy.version)}
                  data-testid="record-policy-link"
                >
                  {r.policy.id}
                  {r.policy.version ? `@${r.policy.version}` : ''}
                </Link>
              ) : (
                <span className="text-zinc-500">no policy decided</span>
              )}
              {r.policy.rule && (
                <span className="ml-2 text-xs">
                  rule{' '}
                  <code className="rounded bg-zinc-100 px-1" data-testid="record-policy-rule">
                    {r.policy.rule}
                  </code>
                </span>
              )}
              {detail && (
                <span className="ml-2 text-xs text-zinc-500">
                  {detail.decision}
                  {detail.duration_ms ? ` in ${formatMs(detail.duration_ms)}` : ''}
                </span>
              )}
              {detail?.reason && (
                <p className="text-zinc-700" data-testid="record-policy-reason" title={detail.reason}>
                  {withActorLabels(detail.reason, people)}
                </p>
              )}
              {detail?.transformed && (
                <p className="text-xs text-zinc-600">
                  Arguments transformed: <span className="font-mono">{short(detail.transformed.original_args_hash)}</span> →{' '}
                  <span className="font-mono">{short(detail.transformed.args_hash)}</span>
                </p>
              )}
              {(detail?.limits ?? []).length > 0 && (
                <ul className="mt-1 space-y-0.5 text-xs" data-testid="record-limits">
                  {(detail?.limits ?? []).map((l) => (
                    <li key={`${l.policy_id}-${l.limit_id}`}>
                      limit <code className="rounded bg-zinc-100 px-1">{l.limit_id}</code>: {l.used} of {l.max} used before this call (+
                      {l.amount}){l.exceeded ? <span className="font-medium text-red-700"> exceeded</span> : null}
                    </li>
                  ))}
                </ul>
              )}
              {(detail?.shadow ?? []).length > 0 && (
                <ul className="mt-1 space-y-0.5 text-xs">
                  {(detail?.shadow ?? []).map((s) => (
                    <li key={`${s.kind}-${s.id}-${s.version}`}>
                      shadow {s.kind}{' '}
                      <Link
                        className="font-mono text-brand hover:underline"
                        href={s.kind === 'contract' ? contractHref(s.id, s.version) : policyHref(s.id, s.version)}
                      >
                        {s.id}@{s.version}
                      </Link>{' '}
                      would {s.differs ? 'decide' : 'also decide'} <DecisionBadge decision={s.decision} />
                      {s.rule && (
                        <>
                          {' '}
                          (rule <code>{s.rule}</code>)
                        </>
                      )}
                      {s.codes.length > 0 && <span className="text-zinc-500"> {s.codes.join(', ')}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </>
        )}
        <dt className="text-zinc-500">{r.api_key_id ? 'Agent key' : 'By'}</dt>
        <dd>{r.api_key_name ?? r.api_key_id ?? r.actor_label ?? (r.actor_user_id ? `user ${r.actor_user_id}` : '—')}</dd>
        <dt className="text-zinc-500">Hashes</dt>
        <dd className="font-mono text-xs text-zinc-600">
          <span title={r.hash}>record {short(r.hash)}</span> · <span title={r.prev_hash}>previous {short(r.prev_hash)}</span> ·{' '}
          <span title={r.args_hash}>arguments {short(r.args_hash)}</span>
        </dd>
        <dt className="text-zinc-500">Request</dt>
        <dd className="font-mono text-xs text-zinc-600">{r.request_id}</dd>
      </dl>
      {r.errors.length > 0 && (
        <ul className="mt-3 space-y-1" data-testid="record-errors">
          {r.errors.map((e, i) => (
            <li key={`${e.code}-${i}`} className="rounded-md bg-red-50 px-3 py-1.5">
              <Link
                className="font-mono text-xs font-medium text-red-800 hover:underline"
                href={`/violations?range=all&code=${encodeURIComponent(e.code)}`}
              >
                {e.code}
              </Link>
              <span className="ml-2 text-red-900">{e.message}</span>
              {e.path && <span className="ml-2 font-mono text-xs text-red-700/70">{e.path}</span>}
            </li>
          ))}
        </ul>
      )}
      {r.warnings.length > 0 && (
        <ul className="mt-2 space-y-1">
          {r.warnings.map((w, i) => (
            <li key={`${w.code}-${i}`} className="rounded-md bg-amber-50 px-3 py-1.5">
              <span className="font-mono text-xs font-medium text-amber-800">{w.code}</span>
              <span className="ml-2 text-amber-900">{w.message}</span>
            </li>
          ))}
        </ul>
      )}
      <RetainedPayloads retained={r.retained} expected={r.kind === 'pre' || r.kind === 'post'} />
    </article>
  );
}
