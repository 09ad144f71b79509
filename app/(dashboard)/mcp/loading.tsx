/** While the servers and their contracts are read: the page's outline, so nothing jumps when it arrives. */
export default function McpLoading() {
  return (
    <div aria-busy="true" aria-live="polite" className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">MCP servers</h1>
      <p className="text-sm text-zinc-500">Loading…</p>
      <div className="card h-24 animate-pulse bg-zinc-100" />
      <div className="card h-48 animate-pulse bg-zinc-100" />
    </div>
  );
}
