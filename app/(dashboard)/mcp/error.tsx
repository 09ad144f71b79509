'use client';

/** Shown when the servers or a drift cannot be read (e.g. the database is unreachable). */
export default function McpError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="card p-6 text-sm">
      <h1 className="mb-1 text-base font-semibold">The MCP servers could not be loaded</h1>
      <p className="mb-4 text-zinc-600">Nothing was changed. This is usually a passing database problem; try again in a moment.</p>
      <button type="button" onClick={reset} className="btn-secondary">
        Try again
      </button>
    </div>
  );
}
