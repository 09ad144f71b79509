import Link from 'next/link';
import type { TraceApprovalView } from '@/lib/traces/get-trace-or-throw';
import { AgentClaims } from '@/components/approvals/agent-claims';
import { findHidden, HiddenCharactersWarning, RevealedText } from '@/components/approvals/revealed-text';
import { DecisionBadge } from './decision-badge';
import { formatInstant, formatMs } from './format';

/**
 * The approval a call waited for: who had to decide, who did, and how long it took; and,
 * labelled apart, what the agent claimed (end user, roles, state) while it was pending.
 */
export function TraceApprovalCard({ approval: a }: { approval: TraceApprovalView }) {
  const hidden = findHidden([a.user_id, a.context ? JSON.stringify(a.context) : null, a.comment, ...a.votes.map((v) => v.comment)]);
  const end = a.decided_at ?? (a.status === 'pending' ? null : a.expires_at);
  const waited = end ? new Date(end).getTime() - new Date(a.created_at).getTime() : null;
  return (
    <article id={`approval-${a.id}`} className="card scroll-mt-4 p-4 text-sm" data-testid="trace-approval">
      <header className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Approval</span>
        <DecisionBadge decision={a.status} />
        <span className="text-zinc-500">
          requested {formatInstant(a.created_at)}
          {a.decided_at
            ? ` · decided ${formatInstant(a.decided_at)}`
            : a.status === 'pending'
              ? ` · expires ${formatInstant(a.expires_at)}`
              : ` · expired ${formatInstant(a.expires_at)}`}
          {waited !== null && ` · waited ${formatMs(waited)}`}
        </span>
        {a.status === 'pending' && (
          <Link href="/approvals" className="ml-auto text-brand hover:underline">
            Open the queue →
          </Link>
        )}
      </header>
      <p className="mt-2 text-zinc-700">{a.reason}</p>
      <p className="mt-1 text-xs text-zinc-600">
        Needs {a.approvers_required} approver{a.approvers_required > 1 ? 's' : ''} with{' '}
        {a.approver_roles.length > 0 ? a.approver_roles.join(' or ') : 'any approving role'}
        {a.escalation_level > 0 && ` · escalated (level ${a.escalation_level})`}
        {a.policy && (
          <>
            {' '}
            · from policy{' '}
            <Link
              className="font-mono text-brand hover:underline"
              href={`/policies/${encodeURIComponent(a.policy.id)}${a.policy.version ? `?version=${encodeURIComponent(a.policy.version)}` : ''}`}
            >
              {a.policy.id}
              {a.policy.version ? `@${a.policy.version}` : ''}
            </Link>
            {a.policy.rule && (
              <>
                {' '}
                rule <code className="rounded bg-zinc-100 px-1">{a.policy.rule}</code>
              </>
            )}
          </>
        )}
      </p>
      <HiddenCharactersWarning count={hidden.count} kinds={hidden.kinds} />
      <AgentClaims
        userId={a.user_id}
        context={a.context}
        contextOmitted={false}
        args={null}
        argumentsOmitted={false}
        edited={false}
        open={false}
      />
      {a.votes.length > 0 && (
        <ul className="mt-2 space-y-1 text-xs">
          {a.votes.map((v) => (
            <li key={`${v.approver_id}-${v.created_at}`}>
              <DecisionBadge decision={v.decision} /> <span>{v.approver_label}</span>{' '}
              <span className="text-zinc-500">{formatInstant(v.created_at)}</span>
              {v.comment && (
                <span className="ml-1 text-zinc-700">
                  “<RevealedText text={v.comment} />”
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {a.comment && a.votes.length === 0 && (
        <p className="mt-2 text-xs text-zinc-700">
          Comment: “<RevealedText text={a.comment} />”
        </p>
      )}
    </article>
  );
}
