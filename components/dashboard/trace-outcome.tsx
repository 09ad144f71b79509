import type { TraceOutcome } from '@/lib/traces/trace-outcome';

const TONES: Record<string, string> = {
  allowed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  transformed: 'bg-sky-50 text-sky-800 ring-sky-200',
  passed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  approved: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  held: 'bg-amber-50 text-amber-800 ring-amber-200',
  escalated: 'bg-amber-50 text-amber-800 ring-amber-200',
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  denied: 'bg-red-50 text-red-700 ring-red-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
};

const RESULT_LABELS: Record<TraceOutcome['result'], string> = {
  passed: 'post-call passed',
  failed: 'post-call failed',
  not_reported: 'post-call not reported',
  not_run: 'did not run',
};

function Badge({ text, tone, testId }: { text: string; tone: string; testId: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone] ?? 'bg-zinc-100 text-zinc-700 ring-zinc-200'}`}
      data-testid={testId}
    >
      {text}
    </span>
  );
}

/** How the call ended, at the top of its trace: the gate's answer, the approval's, the result checks'. */
export function TraceOutcomeLine({ outcome }: { outcome: TraceOutcome }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="trace-outcome">
      {outcome.call && <Badge text={outcome.call} tone={outcome.call} testId="trace-outcome-call" />}
      {outcome.approval && <Badge text={`approval ${outcome.approval}`} tone={outcome.approval} testId="trace-outcome-approval" />}
      <Badge text={RESULT_LABELS[outcome.result]} tone={outcome.result} testId="trace-outcome-result" />
      <span className="text-zinc-600" data-testid="trace-outcome-summary">
        {outcome.summary}
      </span>
    </span>
  );
}
