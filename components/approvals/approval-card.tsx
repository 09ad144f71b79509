'use client';

import Link from 'next/link';
import type { ApprovalQueueItem } from '@/lib/approvals/approval-queue-types';
import { RelativeTime } from '@/components/relative-time';
import { StatusBadge } from '@/components/status-badge';
import { AgentClaims, EditedArguments } from './agent-claims';
import { formatTimeLeft, formatUtc } from './approvals-api';
import { DecisionForm } from './decision-form';
import { findHidden, HiddenCharactersWarning, RevealedText } from './revealed-text';

const linkClass = 'text-brand hover:underline';

/**
 * One approval in the queue, in two parts an approver must not confuse: what Toolgate
 * established itself (the tool and contract version, the side-effect level, which key asked,
 * which rule requires approval, the votes) and, boxed and labelled, what the agent claims
 * (arguments, reason, end user, roles, state). Hidden characters anywhere are revealed and
 * flagged; the actions are those the server says this person may take, or why not.
 */
export function ApprovalCard({ item, now, onDecided }: { item: ApprovalQueueItem; now: number; onDecided: () => void }) {
  const pending = item.status === 'pending';
  const secondsLeft = Math.max(0, Math.floor((Date.parse(item.expires_at) - now) / 1000));
  const contractHref = `/contracts/${encodeURIComponent(item.tool)}?version=${encodeURIComponent(item.version)}`;
  const hidden = findHidden([
    // The policy's reason is an author's words, not the approver's: revealed like the rest.
    item.reason,
    item.arguments ? JSON.stringify(item.arguments) : null,
    item.context ? JSON.stringify(item.context) : null,
    item.arguments_diff ? JSON.stringify(item.arguments_diff) : null,
    item.user_id,
    item.call_id,
    item.comment,
    item.escalation?.comment,
    ...item.votes.map((v) => v.comment),
  ]);
  const reason = item.viewer.cannot_decide_reason;

  return (
    <li data-testid="approval-row" data-approval-id={item.id} data-status={item.status} className="card p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-mono text-sm font-semibold">
            <Link href={contractHref} data-testid="contract-link" className="hover:underline">
              {item.tool}
              <span className="ml-1 font-normal text-zinc-500">@{item.version}</span>
            </Link>
          </p>
          <p className="mt-0.5 text-sm text-zinc-700" data-testid="approval-reason">
            <RevealedText text={item.reason} />
          </p>
        </div>
        <div className="flex items-center gap-2 text-sm">
          <StatusBadge status={item.status} />
          {pending && (
            <span
              data-testid="time-left"
              className={`font-mono tabular-nums ${secondsLeft < 60 ? 'text-red-700' : 'text-zinc-600'}`}
              title={`expires ${formatUtc(item.expires_at)}`}
            >
              {secondsLeft > 0 ? `${formatTimeLeft(secondsLeft)} left` : formatTimeLeft(secondsLeft)}
            </span>
          )}
        </div>
      </div>

      {item.escalation && (
        <div data-testid="escalation" className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">
            Escalated to {item.approver_roles.join(', ') || 'a higher role'}
            {item.escalation.by_label ? ` by ${item.escalation.by_label}` : ' by the policy rule'}
            {item.escalation.at && <span className="font-normal"> · {formatUtc(item.escalation.at)}</span>}
          </p>
          {item.escalation.comment && (
            <p data-testid="escalation-comment" className="mt-1 text-base">
              “<RevealedText text={item.escalation.comment} />”
            </p>
          )}
        </div>
      )}

      <HiddenCharactersWarning count={hidden.count} kinds={hidden.kinds} />

      <section data-testid="established-facts" aria-label="Established by Toolgate" className="mt-3">
        <h3 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Established by Toolgate</h3>
        <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">Call</dt>
          <dd>
            <span data-testid="approval-call-id" className="font-mono text-xs break-all">
              <RevealedText text={item.call_id} />
            </span>{' '}
            <Link href={`/traces/${item.trace_id}`} data-testid="trace-link" className={`text-xs ${linkClass}`}>
              trace →
            </Link>
          </dd>
          <dt className="text-zinc-500">Contract</dt>
          <dd>
            <Link href={contractHref} className={`font-mono ${linkClass}`}>
              {item.tool}@{item.version}
            </Link>
          </dd>
          <dt className="text-zinc-500">Side effect</dt>
          <dd className="font-mono">{item.side_effect_level || '—'}</dd>
          <dt className="text-zinc-500">Requested by</dt>
          <dd>
            {item.requesting_key ? (
              <>
                key <span className="font-medium">{item.requesting_key.name}</span>{' '}
                <span className="font-mono text-xs text-zinc-500">{item.requesting_key.prefix}…</span>
              </>
            ) : (
              'unknown key'
            )}
          </dd>
          <dt className="text-zinc-500">Requires approval</dt>
          <dd data-testid="approval-rule">
            {item.policy ? (
              <>
                policy{' '}
                <Link
                  data-testid="policy-link"
                  className={`font-mono ${linkClass}`}
                  href={`/policies/${encodeURIComponent(item.policy.id)}${item.policy.version ? `?version=${encodeURIComponent(item.policy.version)}` : ''}`}
                >
                  {item.policy.id}@{item.policy.version ?? '?'}
                </Link>{' '}
                rule <code className="rounded bg-zinc-100 px-1">{item.policy.rule ?? '?'}</code>
              </>
            ) : (
              <>
                the contract’s <code className="rounded bg-zinc-100 px-1">approval_required</code>
              </>
            )}
          </dd>
          <dt className="text-zinc-500">Approvers</dt>
          <dd data-testid="approval-votes">
            {item.approvals} of {item.approvers_required} · roles {item.approver_roles.join(', ') || 'any approver'}
            {item.escalation_level > 0 && (
              <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">
                escalated ×{item.escalation_level}
              </span>
            )}
          </dd>
          <dt className="text-zinc-500">Requested</dt>
          <dd>
            <RelativeTime date={item.created_at} />
          </dd>
          {!pending && (
            <>
              <dt className="text-zinc-500">Decided</dt>
              <dd>
                <RelativeTime date={item.decided_at} />{' '}
                {item.decided_by && <span className="text-xs text-zinc-500">by {item.decided_by_label ?? item.decided_by}</span>}
                {item.comment && (
                  <span className="ml-1">
                    — “<RevealedText text={item.comment} />”
                  </span>
                )}
              </dd>
            </>
          )}
        </dl>
        {item.votes.length > 0 && (
          <ul className="mt-2 space-y-0.5 text-xs text-zinc-600">
            {item.votes.map((vote) => (
              <li key={`${vote.approver}-${vote.created_at}`}>
                {vote.approver_label} voted <span className="font-medium">{vote.decision}</span> at {formatUtc(vote.created_at)}
                {vote.comment && (
                  <>
                    {' '}
                    — “<RevealedText text={vote.comment} />”
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <AgentClaims
        userId={item.user_id}
        context={item.context}
        contextOmitted={item.context_omitted}
        args={item.edited ? null : item.arguments}
        argumentsOmitted={item.arguments_omitted}
        edited={item.edited && (item.arguments !== null || item.arguments_omitted)}
        open={pending}
      />
      {item.edited && (item.arguments !== null || item.arguments_omitted) && (
        <EditedArguments
          args={item.arguments}
          omitted={item.arguments_omitted}
          diff={item.arguments_diff}
          open={pending}
          rewrittenBy={item.rewritten_by}
        />
      )}

      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium">Trace so far ({item.trace.length})</summary>
        <ol className="mt-1 space-y-0.5 font-mono text-xs">
          {item.trace.map((step) => (
            <li key={step.evidence_id}>
              {formatUtc(step.created_at)} · {step.kind} · {step.decision}
              {step.codes.length > 0 && <span className="text-zinc-500"> · {step.codes.join(', ')}</span>}
            </li>
          ))}
        </ol>
      </details>

      {pending && reason && (
        <p
          data-testid="cannot-decide-reason"
          data-code={reason.code}
          className="mt-4 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-700"
        >
          {reason.message}
        </p>
      )}
      {pending && item.viewer.can_decide && <DecisionForm item={item} onDecided={onDecided} />}
    </li>
  );
}
