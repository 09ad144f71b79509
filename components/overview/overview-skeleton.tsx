/** What the overview shows while the server reads its figures (a streamed Suspense fallback). */
export function OverviewSkeleton() {
  const block = 'animate-pulse rounded bg-zinc-100';
  return (
    <div aria-busy="true" aria-label="Loading the overview" data-testid="overview-loading">
      <div className={`mb-4 h-4 w-72 ${block}`} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="card p-5">
            <div className={`h-3 w-24 ${block}`} />
            <div className={`mt-2 h-8 w-16 ${block}`} />
            <div className={`mt-2 h-3 w-32 ${block}`} />
          </div>
        ))}
      </div>
      <div className={`card mt-4 h-48 ${block}`} />
      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className={`card h-40 ${block}`} />
        <div className={`card h-40 ${block}`} />
      </div>
    </div>
  );
}
