import type { ArgumentsDiff } from '@/lib/approvals/diff-arguments';
import { RevealedJson, RevealedText } from './revealed-text';

/**
 * Everything the agent supplied, in one box labelled as its claim: the arguments, a `reason`
 * argument, and the context (end user, roles, tenant, state). Toolgate checked the arguments
 * against the contract but cannot know whether any of it is true: a model can write "the
 * customer asked for this" as easily as anything else. Once an approver edited the arguments,
 * they are no longer the agent's: they are shown apart (EditedArguments).
 */
export function AgentClaims(props: {
  userId: string | null;
  context: Record<string, unknown> | null;
  contextOmitted: boolean;
  /** The agent's arguments as shown (redacted); null when not kept or replaced by an edit. */
  args: Record<string, unknown> | null;
  argumentsOmitted: boolean;
  /** An approver replaced the arguments: the agent's values appear in the edit's diff. */
  edited: boolean;
  open: boolean;
}) {
  const { context } = props;
  const roles = Array.isArray(context?.roles) ? context.roles.filter((r): r is string => typeof r === 'string') : [];
  const tenant = typeof context?.tenant_id === 'string' ? context.tenant_id : null;
  const state = context && Object.prototype.hasOwnProperty.call(context, 'state') ? context.state : undefined;
  const reason = !props.edited && props.args && typeof props.args.reason === 'string' ? props.args.reason : null;

  return (
    <section
      data-testid="agent-claims"
      className="mt-3 rounded-md border border-dashed border-amber-400 bg-amber-50/40 p-3 text-sm"
      aria-label="What the agent claims"
    >
      <h3 className="flex flex-wrap items-center gap-2 text-xs font-semibold tracking-wide text-amber-900 uppercase">
        <span className="rounded bg-amber-200 px-1.5 py-0.5">Agent’s claim · unverified</span>
        <span className="font-normal tracking-normal text-amber-800 normal-case">
          supplied by the agent; Toolgate checked its shape against the contract, not its truth
        </span>
      </h3>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-zinc-500">End user</dt>
        <dd data-testid="claimed-user" className="font-mono break-all">
          {props.userId ? <RevealedText text={props.userId} /> : <span className="text-zinc-400">none given</span>}
        </dd>
        <dt className="text-zinc-500">Roles</dt>
        <dd data-testid="claimed-roles" className="font-mono break-all">
          {roles.length > 0 ? (
            roles.map((role, i) => (
              <span key={i}>
                {i > 0 && ', '}
                <RevealedText text={role} />
              </span>
            ))
          ) : (
            <span className="text-zinc-400">{context ? 'none given' : 'not kept'}</span>
          )}
        </dd>
        {tenant !== null && (
          <>
            <dt className="text-zinc-500">Tenant</dt>
            <dd className="font-mono break-all">
              <RevealedText text={tenant} />
            </dd>
          </>
        )}
        {reason !== null && (
          <>
            <dt className="text-zinc-500">Reason given</dt>
            <dd data-testid="claimed-reason" className="break-all">
              “<RevealedText text={reason} />”
            </dd>
          </>
        )}
      </dl>
      {state !== undefined && (
        <details className="mt-2">
          <summary className="cursor-pointer font-medium">State the agent reports</summary>
          <RevealedJson value={state} testId="claimed-state" />
        </details>
      )}
      {props.contextOmitted && <p className="mt-2 text-zinc-500">The context is too large to show here.</p>}
      {props.edited ? (
        <p className="mt-2 text-zinc-600">
          Arguments: replaced by an approver’s edit (below); the agent’s own values are the “was” side of its diff.
        </p>
      ) : (
        props.args && (
          <details className="mt-2" open={props.open}>
            <summary className="cursor-pointer font-medium">Arguments</summary>
            <RevealedJson value={props.args} testId="approval-arguments" />
          </details>
        )
      )}
      {!props.edited && props.argumentsOmitted && <p className="mt-2 text-zinc-500">The arguments are too large to show here.</p>}
    </section>
  );
}

/**
 * Arguments an approver edited, or a policy transform rewrote before anyone decided: what an
 * approve binds (what the tool runs with), and what changed against the agent's.
 */
export function EditedArguments({
  args,
  omitted,
  diff,
  open,
  rewrittenBy = null,
}: {
  args: Record<string, unknown> | null;
  omitted: boolean;
  diff: ArgumentsDiff | null;
  open: boolean;
  /** The policies and rules whose transforms rewrote the arguments; null when an approver edited them. */
  rewrittenBy?: { policy_id: string; version: string; rule: string }[] | null;
}) {
  const label = rewrittenBy
    ? `Rewritten by ${rewrittenBy.map((p) => `policy ${p.policy_id} (rule ${p.rule})`).join(', ') || 'a policy'}`
    : 'Edited by an approver';
  return (
    <section
      data-testid="edited-arguments"
      aria-label={rewrittenBy ? 'Rewritten by a policy' : 'Edited by an approver'}
      className="mt-3 rounded-md border border-sky-300 bg-sky-50/40 p-3 text-sm"
    >
      <h3 className="text-xs font-semibold tracking-wide text-sky-900 uppercase">
        <span className="rounded bg-sky-200 px-1.5 py-0.5">
          <RevealedText text={label} />
        </span>
      </h3>
      {args && (
        <details className="mt-2" open={open}>
          <summary className="cursor-pointer font-medium">
            {rewrittenBy ? 'Arguments the call runs with (an approve binds these)' : 'Arguments as edited (an approve binds these)'}
          </summary>
          <RevealedJson value={args} testId="approval-arguments" />
        </details>
      )}
      {omitted && <p className="mt-2 text-zinc-500">The arguments are too large to show here.</p>}
      {diff ? (
        <ArgumentsDiffView diff={diff} />
      ) : (
        <p className="mt-2 text-zinc-500">The agent’s original arguments are no longer kept, so there is no diff.</p>
      )}
    </section>
  );
}

const KIND_STYLE = { added: 'text-emerald-800', removed: 'text-red-800', changed: 'text-amber-900' } as const;
const KIND_SIGN = { added: '+', removed: '−', changed: '~' } as const;

/** What an approver's edit changed, against the agent's own arguments. */
export function ArgumentsDiffView({ diff }: { diff: ArgumentsDiff }) {
  return (
    <div data-testid="arguments-diff" className="mt-2">
      <p className="font-medium">
        What changed ({diff.changes.length}
        {diff.truncated ? '+' : ''} change{diff.changes.length === 1 ? '' : 's'} against the agent’s arguments)
      </p>
      {diff.changes.length === 0 ? (
        <p className="text-zinc-500">No visible change.</p>
      ) : (
        <ul dir="ltr" className="mt-1 space-y-0.5 font-mono text-xs">
          {diff.changes.map((change, i) => (
            <li key={i} data-testid="diff-change" data-kind={change.kind} className={`break-all ${KIND_STYLE[change.kind]}`}>
              {KIND_SIGN[change.kind]} <RevealedText text={change.path} />
              {change.kind !== 'added' && (
                <>
                  {' '}
                  <span className="text-zinc-500">was</span> <RevealedText text={JSON.stringify(change.before) ?? 'null'} />
                </>
              )}
              {change.kind !== 'removed' && (
                <>
                  {' '}
                  <span className="text-zinc-500">{change.kind === 'added' ? 'now' : '→ now'}</span>{' '}
                  <RevealedText text={JSON.stringify(change.after) ?? 'null'} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {diff.truncated && <p className="text-xs text-zinc-500">More changes than shown; compare the arguments above.</p>}
    </div>
  );
}
