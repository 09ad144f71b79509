/** What an empty dashboard shows: how an agent makes its first call, so there is something to see. */
export function NoCallsYet({ what = 'calls' }: { what?: string }) {
  return (
    <div className="card p-8 text-sm text-zinc-700">
      <h2 className="mb-2 text-base font-semibold text-zinc-900">No {what} yet</h2>
      <p>
        Every call an agent checks with <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/pre</code> (before the tool runs) and{' '}
        <code className="rounded bg-zinc-100 px-1">POST /api/v1/validate/post</code> (after) is recorded here as evidence. With an API key that has the{' '}
        <em>validate</em> scope:
      </p>
      <pre className="mt-3 overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-relaxed text-zinc-100">
        {`curl -s http://localhost:3000/api/v1/validate/pre \\
  -H "Authorization: Bearer $TOOLGATE_KEY" -H "Content-Type: application/json" \\
  -d '{"tool":"orders.lookup","call_id":"call-1","arguments":{"order_id":"ord_123"}}'

# after the tool ran (execution_ms: how long it took, for the trace timeline)
curl -s http://localhost:3000/api/v1/validate/post \\
  -H "Authorization: Bearer $TOOLGATE_KEY" -H "Content-Type: application/json" \\
  -d '{"tool":"orders.lookup","call_id":"call-1","arguments":{"order_id":"ord_123"},"result":{"status":"shipped"},"execution_ms":42}'`}
      </pre>
      <p className="mt-3 text-zinc-600">
        The tool needs a published contract (see Contracts); the answer&apos;s <code className="rounded bg-zinc-100 px-1">decision</code> tells the agent whether to run it.
      </p>
    </div>
  );
}
