'use client';

import Link from 'next/link';
import { DecisionBadge } from '@/components/dashboard/decision-badge';
import { formatDate } from '@/components/format-date';
import { IMPACT_MAX_CALLS, IMPACT_WINDOW_DAYS } from '@/lib/contracts/impact-window';
import { ImpactPanelFrame, type ImpactState } from './impact-preview-panel';
import type { PolicyImpactOutcome, PolicyImpactResult } from './policy-impact-api';

/**
 * The policy studio's impact preview: the draft in the editor replayed against the tenant's
 * recorded calls beside the enforced policies (lib/policies/policy-impact.ts), and the
 * decisions it would change.
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function Outcome({ outcome }: { outcome: PolicyImpactOutcome }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <DecisionBadge decision={outcome.decision} />
      {outcome.policy && (
        <span className="font-mono text-xs text-zinc-600">
          {outcome.policy}
          {outcome.rule ? ` · ${outcome.rule}` : ''}
        </span>
      )}
      {outcome.codes.length > 0 && (
        <span className="inline-flex flex-wrap gap-1">
          {outcome.codes.map((code) => (
            <code key={code} className="rounded bg-red-50 px-1 text-xs font-semibold text-red-800">
              {code}
            </code>
          ))}
        </span>
      )}
    </div>
  );
}

/** Why some recorded calls were not replayed, in one sentence; empty when all were. */
function notReplayedText(result: PolicyImpactResult): string {
  const parts = [
    result.withoutArguments > 0 ? `${plural(result.withoutArguments, 'call')} recorded without arguments` : '',
    result.withoutContext > 0
      ? `${plural(result.withoutContext, 'call')} recorded without the context (or with a redacted value in it)`
      : '',
    result.refusedBeforePolicies > 0
      ? `${plural(result.refusedBeforePolicies, 'call')} refused before any policy ran (unknown tool or version, numbers a double cannot hold)`
      : '',
  ].filter(Boolean);
  return parts.length === 0 ? '' : `Not replayed: ${parts.join('; ')}.`;
}

function Transitions({ result }: { result: PolicyImpactResult }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-2" aria-label="Decisions that change">
      {result.transitions.map((t) => (
        <li
          key={`${t.from}>${t.to}`}
          data-testid="policy-impact-transition"
          className="flex items-center gap-2 rounded-md border border-zinc-200 px-3 py-2 text-sm"
        >
          <DecisionBadge decision={t.from} />
          <span className="text-zinc-500" aria-label="becomes">
            →
          </span>
          <DecisionBadge decision={t.to} />
          <span className="font-semibold">{t.calls.toLocaleString('en')}</span>
          {t.from === t.to && <span className="text-xs text-zinc-500">(other codes)</span>}
        </li>
      ))}
    </ul>
  );
}

function Result({ result }: { result: PolicyImpactResult }) {
  const period = `the last ${IMPACT_WINDOW_DAYS} days`;
  const notReplayed = notReplayedText(result);
  const draft = `${result.policy.id}@${result.policy.version}`;
  if (result.replayed === 0) {
    return (
      <div className="px-4 py-3 text-sm text-zinc-700" data-testid="impact-empty">
        <p>No recorded calls from {period} with their arguments and context to replay this draft against.</p>
        {notReplayed && (
          <p className="mt-1 text-zinc-600" data-testid="impact-not-replayable">
            {notReplayed}
          </p>
        )}
        <p className="mt-1 text-zinc-600">
          <Link href="/settings" className="font-medium text-brand hover:underline">
            Turn on argument retention
          </Link>{' '}
          in the tenant&apos;s settings (sensitive paths stay redacted) so that validate/pre calls keep their arguments and context.
        </p>
      </div>
    );
  }
  return (
    <div className="px-4 py-3 text-sm">
      <p className="text-zinc-700">
        Replayed {plural(result.replayed, 'recorded call')} from {period}
        {result.replayed >= IMPACT_MAX_CALLS ? ` (the newest ${IMPACT_MAX_CALLS.toLocaleString('en')})` : ''} against the enforced policies,
        with <span className="font-mono">{draft}</span>{' '}
        {result.replaces ? (
          <>
            in place of <span className="font-mono">v{result.replaces}</span>
          </>
        ) : (
          'added (no version of it is enforced)'
        )}
        .
      </p>
      {notReplayed && (
        <p className="mt-1 text-zinc-600" data-testid="impact-not-replayable">
          {notReplayed}
        </p>
      )}
      <p className="mt-3 text-zinc-900">
        <span className="text-xl font-semibold" data-testid="impact-changed-count">
          {result.changed.toLocaleString('en')}
        </span>{' '}
        {result.changed === 1 ? 'call would be' : 'calls would be'} decided differently.
      </p>
      {result.changed === 0 ? (
        <p className="mt-1 text-zinc-600" data-testid="impact-empty">
          The draft decides every replayed call as the enforced policies do.
        </p>
      ) : (
        <>
          <Transitions result={result} />
          <h3 className="mt-4 text-sm font-semibold">By error code</h3>
          <table className="mt-1 w-full text-left text-sm">
            <thead className="text-xs text-zinc-500 uppercase">
              <tr>
                <th className="py-1 font-medium">Code</th>
                <th className="font-medium">Calls that gain it</th>
                <th className="font-medium">Calls that lose it</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {result.codes.map((c) => (
                <tr key={c.code} data-testid="impact-code-row">
                  <td className="py-1.5">
                    <code className="text-xs font-semibold">{c.code}</code>
                  </td>
                  <td className={c.added > 0 ? 'text-red-700' : 'text-zinc-500'}>
                    {c.added > 0 ? `+${c.added.toLocaleString('en')}` : '0'}
                  </td>
                  <td className={c.removed > 0 ? 'text-emerald-700' : 'text-zinc-500'}>
                    {c.removed > 0 ? `−${c.removed.toLocaleString('en')}` : '0'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>

          <h3 className="mt-4 text-sm font-semibold">
            Changed calls
            {result.changed > result.examples.length
              ? ` (the newest ${result.examples.length} of ${result.changed.toLocaleString('en')})`
              : ''}
          </h3>
          <table className="mt-1 w-full text-left text-sm">
            <thead className="text-xs text-zinc-500 uppercase">
              <tr>
                <th className="py-1 font-medium">Call</th>
                <th className="font-medium">Recorded</th>
                <th className="font-medium">Enforced policies</th>
                <th className="font-medium">With this draft</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 align-top">
              {result.examples.map((e) => (
                <tr key={e.evidenceId || `${e.callId}@${e.at}`} data-testid="impact-change-row">
                  <td className="max-w-56 py-1.5">
                    <p className="truncate font-mono text-xs" title={e.tool}>
                      {e.tool}
                    </p>
                    <p className="truncate font-mono text-xs text-zinc-500" title={e.callId}>
                      {e.callId}
                    </p>
                  </td>
                  <td className="py-1.5 whitespace-nowrap text-zinc-600" title={e.at}>
                    {formatDate(new Date(e.at))}
                  </td>
                  <td className="py-1.5">
                    <Outcome outcome={e.before} />
                  </td>
                  <td className="py-1.5">
                    <Outcome outcome={e.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <p className="mt-3 text-xs text-zinc-500" data-testid="policy-impact-history-note">
        Both sides are decided now, with each call&apos;s recorded arguments and context and its contract version&apos;s side-effect level.
        Limits and history functions count only the replayed calls before each one, each side with its own decisions: not the live counters,
        nor calls before {period} or without retained arguments. What the contract refused a call for stays as recorded; a call that
        redeemed an approval counts as approved on both sides.
        {result.redactedArguments > 0 &&
          ` ${plural(result.redactedArguments, 'replayed call')} had argument values stored redacted; conditions reading them saw the placeholder.`}
      </p>
    </div>
  );
}

/** The policy preview's answer under the editor; nothing while it has not been asked for. */
export function PolicyImpactPanel({ state, onRun, onClose }: { state: ImpactState<PolicyImpactResult>; onRun(): void; onClose(): void }) {
  return (
    <ImpactPanelFrame state={state} onRun={onRun} onClose={onClose}>
      {state.phase === 'done' && <Result result={state.result} />}
    </ImpactPanelFrame>
  );
}
