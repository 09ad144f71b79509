'use client';

import { useState } from 'react';
import type { ApprovalQueueItem } from '@/lib/approvals/approval-queue-types';
import { StatusBadge } from '@/components/status-badge';
import { formatTimeLeft, formatUtc, sendDecision, type DecisionBody, type DecisionFailure } from './approvals-api';

/** One approval in the queue: what is asked, by whom, why, the trace so far, and the actions. */
export function ApprovalCard({ item, now, canDecide, onDecided }: { item: ApprovalQueueItem; now: number; canDecide: boolean; onDecided: () => void }) {
  const [comment, setComment] = useState('');
  const [editing, setEditing] = useState(false);
  const [argumentsText, setArgumentsText] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<DecisionFailure | null>(null);
  const pending = item.status === 'pending';
  const secondsLeft = Math.max(0, Math.floor((Date.parse(item.expires_at) - now) / 1000));

  async function decide(body: DecisionBody) {
    setBusy(true);
    setFailure(null);
    const result = await sendDecision(item.id, { ...body, ...(comment.trim() ? { comment: comment.trim() } : {}) });
    setBusy(false);
    if (!result.ok) {
      setFailure(result.failure);
      return;
    }
    setComment('');
    setEditing(false);
    onDecided();
  }

  function approveEdited() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(argumentsText);
    } catch (error) {
      setFailure({ status: 0, code: 'invalid_json', message: `The edited arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`, issues: [] });
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setFailure({ status: 0, code: 'invalid_json', message: 'The edited arguments must be a JSON object.', issues: [] });
      return;
    }
    void decide({ decision: 'approve', arguments: parsed as Record<string, unknown> });
  }

  return (
    <li data-testid="approval-row" data-approval-id={item.id} data-status={item.status} className="card p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-mono text-sm font-semibold">
            {item.tool}
            <span className="ml-1 font-normal text-zinc-500">@{item.version}</span>
          </p>
          <p className="mt-0.5 text-sm text-zinc-700">{item.reason}</p>
        </div>
        <div className="flex items-center gap-2 text-sm">
          <StatusBadge status={item.status} />
          {pending && (
            <span data-testid="time-left" className={`font-mono tabular-nums ${secondsLeft < 60 ? 'text-red-700' : 'text-zinc-600'}`} title={`expires ${formatUtc(item.expires_at)}`}>
              {formatTimeLeft(secondsLeft)} left
            </span>
          )}
        </div>
      </div>

      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-500">Side effect</dt>
        <dd className="font-mono">{item.side_effect_level || '—'}</dd>
        <dt className="text-zinc-500">Requested by</dt>
        <dd>
          {item.requesting_key ? (
            <>
              key <span className="font-medium">{item.requesting_key.name}</span> <span className="font-mono text-xs text-zinc-500">{item.requesting_key.prefix}…</span>
            </>
          ) : (
            'unknown key'
          )}
          {item.user_id && <> for user <span className="font-mono">{item.user_id}</span></>}
        </dd>
        <dt className="text-zinc-500">Policy rule</dt>
        <dd className="font-mono">{item.policy ? `${item.policy.id}@${item.policy.version ?? '?'} / ${item.policy.rule ?? '?'}` : 'contract (approval_required)'}</dd>
        <dt className="text-zinc-500">Approvers</dt>
        <dd data-testid="approval-votes">
          {item.approvals} of {item.approvers_required} · roles {item.approver_roles.join(', ') || 'any approver'}
          {item.escalation_level > 0 && <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">escalated ×{item.escalation_level}</span>}
        </dd>
        <dt className="text-zinc-500">Requested</dt>
        <dd>{formatUtc(item.created_at)}</dd>
        {!pending && (
          <>
            <dt className="text-zinc-500">Decided</dt>
            <dd>
              {formatUtc(item.decided_at)} {item.decided_by && <span className="text-xs text-zinc-500">by {item.decided_by_label ?? item.decided_by}</span>}
              {item.comment && <span className="ml-1">— “{item.comment}”</span>}
            </dd>
          </>
        )}
      </dl>

      {item.arguments && (
        <details className="mt-3" open={pending}>
          <summary className="cursor-pointer text-sm font-medium">Arguments{item.edited ? ' (edited by an approver)' : ''}</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-zinc-50 p-2 text-xs">{JSON.stringify(item.arguments, null, 2)}</pre>
        </details>
      )}
      {item.arguments_omitted && <p className="mt-3 text-sm text-zinc-500">The arguments are too large to show here.</p>}

      {item.votes.length > 0 && (
        <ul className="mt-3 space-y-0.5 text-xs text-zinc-600">
          {item.votes.map((vote) => (
            <li key={`${vote.approver}-${vote.created_at}`}>
              {vote.approver_label} voted <span className="font-medium">{vote.decision}</span> at {formatUtc(vote.created_at)}
              {vote.comment && <> — “{vote.comment}”</>}
            </li>
          ))}
        </ul>
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

      {pending && canDecide && (
        <div className="mt-4 space-y-2 border-t border-zinc-100 pt-3">
          <label className="block text-sm font-medium" htmlFor={`comment-${item.id}`}>Comment (the agent reads it)</label>
          <textarea id={`comment-${item.id}`} data-testid="decision-comment" className="input" rows={2} maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} />
          {editing && (
            <>
              <label className="block text-sm font-medium" htmlFor={`args-${item.id}`}>
                Edited arguments (JSON; a field left as “[REDACTED]” keeps the agent’s value)
              </label>
              <textarea id={`args-${item.id}`} data-testid="edit-arguments" className="input font-mono text-xs" rows={10} value={argumentsText} onChange={(e) => setArgumentsText(e.target.value)} />
            </>
          )}
          {failure && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              <p>{failure.message}</p>
              {failure.issues.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-xs">
                  {failure.issues.map((issue, i) => (
                    <li key={i}>
                      <span className="font-mono">{issue.code}</span> at <span className="font-mono">{issue.path}</span>: {issue.message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            {editing ? (
              <>
                <button type="button" data-testid="approve-edited-button" className="btn-primary" disabled={busy} onClick={approveEdited}>Approve edited call</button>
                <button type="button" className="btn-secondary" disabled={busy} onClick={() => setEditing(false)}>Cancel edit</button>
              </>
            ) : (
              <>
                <button type="button" data-testid="approve-button" className="btn-primary" disabled={busy} onClick={() => void decide({ decision: 'approve' })}>Approve</button>
                <button type="button" data-testid="deny-button" className="btn-danger" disabled={busy} onClick={() => void decide({ decision: 'deny' })}>Deny</button>
                {!item.arguments_omitted && item.arguments && (
                  <button
                    type="button"
                    data-testid="edit-button"
                    className="btn-secondary"
                    disabled={busy}
                    onClick={() => {
                      setArgumentsText(JSON.stringify(item.arguments, null, 2));
                      setEditing(true);
                    }}
                  >
                    Edit arguments…
                  </button>
                )}
                {!(item.approver_roles.length === 1 && item.approver_roles[0] === 'admin') && (
                  <button type="button" data-testid="escalate-button" className="btn-secondary" disabled={busy} onClick={() => void decide({ decision: 'escalate' })}>Escalate to admins</button>
                )}
              </>
            )}
          </div>
        </div>
      )}
    </li>
  );
}
