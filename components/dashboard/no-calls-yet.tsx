import { firstCallCommands } from './first-call-example';

/**
 * What an empty dashboard shows: how an agent makes its first call, so there is something to
 * see. `baseUrl` is the instance's public URL (publicBaseUrl(), read by the server page).
 */
export function NoCallsYet({ baseUrl, what = 'calls' }: { baseUrl: string; what?: string }) {
  return (
    <div className="card p-8 text-sm text-zinc-700">
      <h2 className="mb-2 text-base font-semibold text-zinc-900">No {what} yet</h2>
      <p>
        Every call an agent checks with <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/pre</code> (before the tool runs)
        and <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/post</code> (after) is recorded here as evidence. With an API
        key that has the <em>validate</em> scope:
      </p>
      <pre className="mt-3 overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-relaxed text-zinc-100">
        {firstCallCommands(baseUrl)}
      </pre>
      <p className="mt-3 text-zinc-600">
        The tool needs a published contract (the demo tenant has orders.lookup; see Contracts); the answer&apos;s{' '}
        <code className="rounded bg-zinc-100 px-1">decision</code> tells the agent whether to run it.
      </p>
    </div>
  );
}
