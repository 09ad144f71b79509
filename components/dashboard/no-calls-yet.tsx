import Link from 'next/link';
import { resolveContract } from '@/lib/contracts/resolve-contract';
import { FIRST_CALL_PRE, firstCallCommands } from './first-call-example';

/**
 * What an empty dashboard shows: how an agent makes its first call, so there is something to
 * see. `baseUrl` is the instance's public URL (publicBaseUrl(), read by the server page). A
 * tenant started with TOOLGATE_INIT_TENANT has no contracts, and the example's call would only
 * be refused as an unknown tool there, so it is told how to publish the contract first.
 */
export async function NoCallsYet({ baseUrl, tenantId, what = 'calls' }: { baseUrl: string; tenantId: string; what?: string }) {
  const tool = FIRST_CALL_PRE.tool;
  // The lookup an unpinned call makes (cached), so "served" here means what the gate would find.
  const served = await resolveContract({ tenantId, tool }).then(
    (outcome) => outcome.found,
    () => true, // A failed read says nothing about the tenant; keep the plain note.
  );
  return (
    <div className="card p-8 text-sm text-zinc-700" data-testid="no-calls-yet">
      <h2 className="mb-2 text-base font-semibold text-zinc-900">No {what} yet</h2>
      <p>
        Every call an agent checks with <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/pre</code> (before the tool runs)
        and <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/post</code> (after) is recorded here as evidence. With an API
        key that has the <em>validate</em> scope:
      </p>
      <pre className="mt-3 overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-relaxed text-zinc-100">
        {firstCallCommands(baseUrl)}
      </pre>
      {served ? (
        <p className="mt-3 text-zinc-600">
          The answer&apos;s <code className="rounded bg-zinc-100 px-1">decision</code> tells the agent whether to run the tool.
        </p>
      ) : (
        <p className="mt-3 text-zinc-600" data-testid="first-call-needs-contract">
          This tenant has no published {tool} contract yet, so the call would be refused as an unknown tool. Create it with{' '}
          <Link href="/contracts/new" className="font-medium text-brand hover:underline">
            New contract
          </Link>{' '}
          from the read-only query template and publish it (or call a tool of your own); the answer&apos;s{' '}
          <code className="rounded bg-zinc-100 px-1">decision</code> tells the agent whether to run it.
        </p>
      )}
    </div>
  );
}
