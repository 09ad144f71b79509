'use client';

import Link from 'next/link';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { formatDate } from '@/components/format-date';
import { IMPACT_MAX_CALLS, IMPACT_WINDOW_DAYS } from '@/lib/contracts/impact-window';
import type { ApiFailure, ApiResult, ImpactResult } from './studio-api';

/**
 * Impact preview (decision replay): the draft in the editor, saved or not, is replayed against
 * the tenant's recent recorded validate/pre calls (a contract's: of its tool; a policy's: beside
 * the enforced policies, components/studio/policy-impact-panel.tsx), and the panel shows which
 * outcomes would change before anyone publishes it.
 */

export type ImpactState<R = ImpactResult> =
  | { phase: 'idle' }
  | { phase: 'running' }
  /** `stale`: the editor changed after the draft was sent, so the answer is about older text. */
  | { phase: 'done'; result: R; stale: boolean }
  | { phase: 'unreadable'; message: string }
  | { phase: 'failed'; failure: ApiFailure };

/** The editor's text read as a document, or why it could not be (the same reading as save). */
export type DraftRead = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** The replay endpoint of a document kind: `POST {apiBase}/{id}/impact` with the draft. */
export type PreviewImpact<R> = (apiBase: string, id: string, document: unknown) => Promise<ApiResult<R>>;

export function useImpactPreview<R>(apiBase: string, preview: PreviewImpact<R>) {
  const [state, setState] = useState<ImpactState<R>>({ phase: 'idle' });
  const editedWhileRunning = useRef(false);

  const run = useCallback(
    async (draft: DraftRead) => {
      if (!draft.ok) {
        setState({ phase: 'unreadable', message: draft.message });
        return;
      }
      const tool = draft.value.id;
      if (typeof tool !== 'string' || tool === '') {
        setState({ phase: 'unreadable', message: 'The document has no `id`, so there are no recorded calls to replay it against.' });
        return;
      }
      editedWhileRunning.current = false;
      setState({ phase: 'running' });
      const answer = await preview(apiBase, tool, draft.value);
      setState(
        answer.ok
          ? { phase: 'done', result: answer.value, stale: editedWhileRunning.current }
          : { phase: 'failed', failure: answer.failure },
      );
    },
    [apiBase, preview],
  );

  /** Called on every edit: an answer already shown, or on its way, no longer matches the text. */
  const markEdited = useCallback(() => {
    editedWhileRunning.current = true;
    setState((s) => (s.phase === 'done' && !s.stale ? { ...s, stale: true } : s));
  }, []);

  const close = useCallback(() => setState({ phase: 'idle' }), []);

  return { state, run, markEdited, close };
}

export function ImpactPreviewButton({ state, onRun }: { state: ImpactState<unknown>; onRun(): void }) {
  return (
    <button
      type="button"
      className="btn-secondary whitespace-nowrap"
      data-testid="impact-preview-button"
      onClick={onRun}
      disabled={state.phase === 'running'}
      title={`Replay this draft against the recorded calls of the last ${IMPACT_WINDOW_DAYS} days`}
    >
      {state.phase === 'running' ? 'Previewing…' : 'Preview impact'}
    </button>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function Outcome({ codes }: { codes: readonly string[] }) {
  if (codes.length === 0) return <span className="font-medium text-emerald-700">passes</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {codes.map((code) => (
        <code key={code} className="rounded bg-red-50 px-1 text-xs font-semibold text-red-800">
          {code}
        </code>
      ))}
    </span>
  );
}

function Stat({ label, value, testId, tone }: { label: string; value: number; testId: string; tone?: string }) {
  return (
    <div className="rounded-md border border-zinc-200 px-3 py-2">
      <p className="text-xs text-zinc-500 uppercase">{label}</p>
      <p className={`text-xl font-semibold ${value > 0 && tone ? tone : 'text-zinc-900'}`} data-testid={testId}>
        {value.toLocaleString('en')}
      </p>
    </div>
  );
}

function showProblems() {
  const panel = document.querySelector<HTMLElement>('[data-testid="problems-panel"]');
  panel?.scrollIntoView({ block: 'center' });
  panel?.querySelector<HTMLElement>('[data-testid="problem"]')?.focus();
}

/** Why some recorded calls were not replayed, in one sentence; empty when all were. */
function notReplayedText(result: ImpactResult): string {
  const parts = [
    result.withoutArguments > 0 ? `${plural(result.withoutArguments, 'call')} recorded without arguments` : '',
    result.withoutContext > 0
      ? `${plural(result.withoutContext, 'call')} recorded without ${result.withoutContext === 1 ? 'its' : 'their'} context (before contexts were kept, or with a redacted value in it)`
      : '',
  ].filter(Boolean);
  return parts.length === 0
    ? ''
    : `Not replayable: ${parts.join(' and ')}. Replaying them with a made-up context would report changes that are not there, so they are left out.`;
}

function Result({ result }: { result: ImpactResult }) {
  const period = `the last ${IMPACT_WINDOW_DAYS} days`;
  if (result.replayed === 0) {
    return (
      <div className="px-4 py-3 text-sm text-zinc-700" data-testid="impact-empty">
        <p>
          {result.notReplayable > 0
            ? `${plural(result.notReplayable, 'call')} of ${result.tool} ${result.notReplayable === 1 ? 'was' : 'were'} recorded in ${period}, but none with both ${result.notReplayable === 1 ? 'its' : 'their'} arguments and context, so there is nothing to replay.`
            : `No recorded calls of ${result.tool} with retained arguments in ${period}.`}
        </p>
        {result.notReplayable > 0 && (
          <p className="mt-1 text-zinc-600" data-testid="impact-not-replayable">
            {notReplayedText(result)}
          </p>
        )}
        <p className="mt-1 text-zinc-600">
          <Link href="/settings" className="font-medium text-brand hover:underline" data-testid="impact-settings-link">
            Turn on argument retention
          </Link>{' '}
          in the tenant&apos;s settings (sensitive paths stay redacted) so that validate/pre calls keep their arguments and context and a
          draft can be replayed against them.
        </p>
      </div>
    );
  }
  const more = result.changed - result.examples.length;
  return (
    <div className="px-4 py-3 text-sm">
      <p className="text-zinc-700">
        Replayed {plural(result.replayed, 'recorded call')} of <span className="font-mono">{result.tool}</span> from {period}
        {result.replayed >= IMPACT_MAX_CALLS ? ` (the newest ${IMPACT_MAX_CALLS.toLocaleString('en')})` : ''}.
      </p>
      {result.notReplayable > 0 && (
        <p className="mt-1 text-zinc-600" data-testid="impact-not-replayable">
          {notReplayedText(result)}
        </p>
      )}
      <div className="mt-3 grid grid-cols-3 gap-3">
        <Stat label="Decisions that change" value={result.changed} testId="impact-changed-count" tone="text-amber-700" />
        <Stat label="Newly refused" value={result.newlyRefused} testId="impact-newly-refused" tone="text-red-700" />
        <Stat label="Newly passing" value={result.newlyPassing} testId="impact-newly-passing" tone="text-emerald-700" />
      </div>
      {result.changed === 0 ? (
        <p className="mt-3 text-zinc-600" data-testid="impact-empty">
          No decision would change: the draft gives every replayed call the outcome it had when it was recorded.
        </p>
      ) : (
        <>
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
            Changed calls{more > 0 ? ` (the newest ${result.examples.length} of ${result.changed.toLocaleString('en')})` : ''}
          </h3>
          <table className="mt-1 w-full text-left text-sm">
            <thead className="text-xs text-zinc-500 uppercase">
              <tr>
                <th className="py-1 font-medium">Call</th>
                <th className="font-medium">Recorded</th>
                <th className="font-medium">Recorded outcome</th>
                <th className="font-medium">
                  <span className="sr-only">becomes</span>
                </th>
                <th className="font-medium">With this draft</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {result.examples.map((e) => (
                <tr key={e.evidenceId || `${e.callId}@${e.at}`} data-testid="impact-change-row">
                  <td className="max-w-48 truncate py-1.5 font-mono text-xs" title={e.callId}>
                    {e.callId}
                  </td>
                  <td className="whitespace-nowrap text-zinc-600" title={e.at}>
                    {formatDate(new Date(e.at))}
                  </td>
                  <td>
                    <Outcome codes={e.before} />
                  </td>
                  <td className="px-2 text-zinc-500" aria-hidden>
                    →
                  </td>
                  <td>
                    <Outcome codes={e.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <p className="mt-3 text-xs text-zinc-500">
        The contract&apos;s own checks are replayed with each call&apos;s recorded arguments and context (input schema, preconditions,
        scope, roles). Confirmation, approval and duplicate checks depend on single-use tokens and on other calls, and policies are not part
        of the contract, so they are left out on both sides.
      </p>
    </div>
  );
}

/** The contract preview's answer under the editor; nothing while it has not been asked for. */
export function ImpactPreviewPanel({ state, onRun, onClose }: { state: ImpactState; onRun(): void; onClose(): void }) {
  return (
    <ImpactPanelFrame state={state} onRun={onRun} onClose={onClose}>
      {state.phase === 'done' && <Result result={state.result} />}
    </ImpactPanelFrame>
  );
}

/** The panel around any kind's answer (`children`): its header, progress and failures. */
export function ImpactPanelFrame({
  state,
  onRun,
  onClose,
  children,
}: {
  state: ImpactState<unknown>;
  onRun(): void;
  onClose(): void;
  children: ReactNode;
}) {
  if (state.phase === 'idle') return null;
  return (
    <section aria-label="Impact preview" data-testid="impact-panel" aria-busy={state.phase === 'running'} className="card shrink-0">
      <header className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-2 text-sm">
        <h2 className="font-semibold">Impact preview</h2>
        <div className="flex items-center gap-3">
          {state.phase === 'done' && state.stale && (
            <span className="text-xs text-amber-700" data-testid="impact-stale">
              The editor changed since this preview.
            </span>
          )}
          {(state.phase === 'done' || state.phase === 'failed') && (
            <button type="button" className="text-xs font-medium text-brand hover:underline" onClick={onRun}>
              Run again
            </button>
          )}
          <button type="button" className="text-xs text-zinc-500 hover:text-zinc-900" onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      {state.phase === 'running' && (
        <p role="status" className="px-4 py-3 text-sm text-zinc-600">
          Replaying the recorded calls of the last {IMPACT_WINDOW_DAYS} days against this draft…
        </p>
      )}
      {state.phase === 'unreadable' && (
        <div role="alert" className="px-4 py-3 text-sm text-red-800" data-testid="impact-error">
          <p>The draft cannot be replayed: {state.message}</p>
          <p className="mt-1">
            Fix it first; the{' '}
            <button type="button" className="font-medium underline" onClick={showProblems}>
              problems panel
            </button>{' '}
            shows where.
          </p>
        </div>
      )}
      {state.phase === 'failed' && (
        <div role="alert" className="px-4 py-3 text-sm text-red-800" data-testid="impact-error">
          <p>Impact preview failed: {state.failure.message}</p>
          {state.failure.problems.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {state.failure.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {children}
    </section>
  );
}
