'use client';

import type { StudioProblem } from './types';

const ICON: Record<StudioProblem['severity'], { symbol: string; tone: string; label: string }> = {
  error: { symbol: '✕', tone: 'text-red-600', label: 'Error' },
  warning: { symbol: '!', tone: 'text-amber-600', label: 'Warning' },
  info: { symbol: 'i', tone: 'text-sky-600', label: 'Info' },
};

export interface ProblemsPanelProps {
  problems: readonly StudioProblem[];
  /** `checking` before the first answer, or a message when the worker is unavailable. */
  status: { state: 'checking' } | { state: 'ready'; millis: number } | { state: 'failed'; message: string };
  onSelect(problem: StudioProblem): void;
}

/** The linter's findings under the editor; choosing one moves the cursor to it. */
export function ProblemsPanel({ problems, status, onSelect }: ProblemsPanelProps) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  return (
    // A container: beside the editor the panel is narrow, and each problem puts its message on a
    // line of its own; under it (or widened) one line each.
    <section aria-label="Problems" data-testid="problems-panel" className="card @container shrink-0">
      <header className="flex flex-wrap items-center justify-between gap-x-3 border-b border-zinc-200 px-4 py-2 text-sm">
        <h2 className="font-semibold">
          Problems{' '}
          <span className="ml-1 font-normal text-zinc-500">
            {errors} {errors === 1 ? 'error' : 'errors'}, {warnings} {warnings === 1 ? 'warning' : 'warnings'}
          </span>
        </h2>
        <span className="text-xs text-zinc-500" aria-live="polite">
          {status.state === 'checking' && 'Checking…'}
          {status.state === 'ready' && `Checked in the browser in ${Math.max(1, Math.round(status.millis))} ms`}
          {status.state === 'failed' && <span className="text-red-700">Live diagnostics are unavailable: {status.message}</span>}
        </span>
      </header>
      {problems.length === 0 ? (
        <p className="px-4 py-3 text-sm text-zinc-500">{status.state === 'ready' ? 'No problems found.' : ' '}</p>
      ) : (
        <ul className="max-h-72 divide-y divide-zinc-100 overflow-y-auto text-sm">
          {problems.map((p, i) => {
            const icon = ICON[p.severity];
            return (
              <li key={`${p.source}-${p.code}-${p.range.startLine}-${p.range.startColumn}-${i}`}>
                <button
                  type="button"
                  onClick={() => onSelect(p)}
                  className="grid w-full grid-cols-[1rem_minmax(0,1fr)_auto] items-baseline gap-x-3 px-4 py-1.5 text-left hover:bg-zinc-50 @2xl:grid-cols-[1rem_auto_minmax(0,1fr)_auto]"
                  data-testid="problem"
                >
                  <span className={`text-center font-bold ${icon.tone}`} role="img" aria-label={icon.label}>
                    {icon.symbol}
                  </span>
                  <code className="truncate text-xs font-semibold text-zinc-700" title={p.code}>
                    {p.code}
                  </code>
                  <span className="col-span-2 col-start-2 row-start-2 text-zinc-800 @2xl:col-span-1 @2xl:col-start-3 @2xl:row-start-1">
                    {p.message}
                  </span>
                  <span className="col-start-3 row-start-1 font-mono text-xs whitespace-nowrap text-zinc-500 @2xl:col-start-4">
                    {p.target === 'prompt' ? 'prompt ' : ''}
                    {p.range.startLine}:{p.range.startColumn}
                    {p.source === 'server' ? ' · server' : ''}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
