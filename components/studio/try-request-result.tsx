import { DecisionBadge } from '@/components/dashboard/decision-badge';
import type { TryAnswer } from '@/lib/policies/try-policy';

/** What the draft decided for a tried call: the decision and why, the refusals, each limit, every step. */

const OUTCOME_TONES: Record<string, string> = {
  passed: 'text-emerald-700',
  matched: 'text-zinc-900 font-semibold',
  not_matched: 'text-zinc-500',
  not_applicable: 'text-zinc-500',
  skipped: 'text-zinc-500',
  refused: 'text-red-700 font-semibold',
  exceeded: 'text-red-700 font-semibold',
  error: 'text-red-700 font-semibold',
};

const STEP_LABELS: Record<string, string> = {
  capability: 'Capability',
  side_effect_ceiling: 'Side-effect ceiling',
  arg_constraints: 'Argument constraints',
  limit: 'Limit',
  rule: 'Rule',
  approval: 'Approval',
};

function sideEffectText(side: TryAnswer['side_effect']): string {
  if (side.source === 'contract') return `from the published contract v${side.contract_version ?? '?'}`;
  if (side.source === 'request') return 'as set above (the tenant has no published contract for this tool)';
  return 'the default (no published contract for this tool, and none set above)';
}

function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 129_600) return `${Math.round(seconds / 360) / 10} h`;
  return `${Math.round(seconds / 8640) / 10} d`;
}

const number = (n: number) => n.toLocaleString('en');

export function TryRequestResult({ answer }: { answer: TryAnswer }) {
  const decider = answer.decided_by;
  return (
    <div data-testid="try-result">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Decision</span>
        <span data-testid="try-decision" data-decision={answer.decision}>
          <DecisionBadge decision={answer.decision} />
        </span>
        {decider && (
          <span className="text-zinc-600" data-testid="try-decided-by">
            by <span className="font-mono">{decider.rule}</span> of <span className="font-mono">{decider.policy_id}</span>
          </span>
        )}
      </div>
      {answer.reason && (
        <p className="mt-1 text-zinc-700" data-testid="try-reason">
          {answer.reason}
        </p>
      )}
      <p className="mt-1 text-xs text-zinc-500" data-testid="try-side-effect">
        Side-effect level <span className="font-mono">{answer.side_effect.level}</span>, {sideEffectText(answer.side_effect)}.{' '}
        {answer.simulated_calls === 1 ? '1 simulated past call.' : `${number(answer.simulated_calls)} simulated past calls.`}
      </p>

      {answer.errors.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">Refusals</h3>
          <ul className="mt-1 space-y-1">
            {answer.errors.map((issue, index) => (
              <li key={`${issue.code}-${index}`} data-testid="try-error-code">
                <code className="rounded bg-red-50 px-1 text-xs font-semibold text-red-800">{issue.code}</code>{' '}
                <span className="text-zinc-700">{issue.message}</span>
              </li>
            ))}
          </ul>
        </>
      )}

      {answer.approval && (
        <p className="mt-3 text-zinc-700" data-testid="try-approval">
          Needs {answer.approval.approvers_required === 1 ? 'one approval' : `${answer.approval.approvers_required} approvals`}
          {answer.approval.roles.length > 0 ? ` by ${answer.approval.roles.join(', ')}` : ''}
          {answer.approval.escalated ? ' (escalated)' : ''}
          {answer.approval.expires_in_seconds !== null ? `, within ${duration(answer.approval.expires_in_seconds)}` : ''}.
        </p>
      )}

      {answer.transformed_arguments && (
        <>
          <h3 className="mt-3 text-sm font-semibold">Arguments after the transform</h3>
          <pre className="mt-1 overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs" data-testid="try-transformed">
            {JSON.stringify(answer.transformed_arguments, null, 2)}
          </pre>
        </>
      )}

      {answer.limits.length > 0 && (
        <>
          <h3 className="mt-3 text-sm font-semibold">Limits</h3>
          <table className="mt-1 w-full text-left text-sm" data-testid="try-limits">
            <thead className="text-xs text-zinc-500 uppercase">
              <tr>
                <th className="py-1 font-medium">Limit</th>
                <th className="font-medium">Per, window</th>
                <th className="font-medium">Used</th>
                <th className="font-medium">Max</th>
                <th className="font-medium">Remaining</th>
                <th className="font-medium">This call</th>
                <th className="font-medium">Retry after</th>
                <th className="font-medium">Past it</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {answer.limits.map((limit) => (
                <tr key={`${limit.policy_id}/${limit.limit_id}`} data-testid="try-limit-row" data-limit={limit.limit_id}>
                  <td className="py-1.5 font-mono text-xs">{limit.limit_id}</td>
                  <td className="text-zinc-600">
                    {limit.per}, {limit.window}
                  </td>
                  <td className={limit.exceeded ? 'font-semibold text-red-700' : undefined} data-testid="try-limit-used">
                    {number(limit.used)}
                  </td>
                  <td>{number(limit.max)}</td>
                  <td data-testid="try-limit-remaining">{number(limit.remaining)}</td>
                  <td className="text-zinc-600">+{number(limit.amount)}</td>
                  <td
                    className="text-zinc-600"
                    data-testid="try-limit-retry"
                    title={limit.retry_after_seconds === null ? undefined : `${limit.retry_after_seconds} s`}
                  >
                    {limit.retry_after_seconds === null ? '—' : duration(limit.retry_after_seconds)}
                  </td>
                  <td className="text-zinc-600">{limit.when_exceeded === 'deny' ? 'deny' : 'approval'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h3 className="mt-3 text-sm font-semibold">How each step evaluated</h3>
      {answer.trace.length === 0 ? (
        <p className="mt-1 text-zinc-600" data-testid="try-trace-empty">
          The draft has no capability, constraint, limit or rule for this tool: it is allowed by default.
        </p>
      ) : (
        <ol className="mt-1 space-y-1" data-testid="try-trace">
          {answer.trace.map((step, index) => (
            <li key={index} className="flex flex-wrap gap-x-2" data-testid="try-trace-step" data-outcome={step.outcome}>
              <span className="w-6 text-right text-xs text-zinc-500 tabular-nums">{index + 1}.</span>
              <span className="text-zinc-600">{STEP_LABELS[step.step] ?? step.step}</span>
              {step.id !== step.step && <span className="font-mono text-xs leading-5">{step.id}</span>}
              <span className={OUTCOME_TONES[step.outcome] ?? 'text-zinc-700'}>{step.outcome.replace('_', ' ')}</span>
              {step.detail && <span className="basis-full pl-8 text-xs text-zinc-500">{step.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
