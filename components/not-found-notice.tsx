import Link from 'next/link';

/** A missing page or record, said plainly, with the ways back. */
export function NotFoundNotice() {
  return (
    <div className="card p-6 text-sm" data-testid="not-found">
      <p className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">404</p>
      <h1 className="mt-1 mb-1 text-xl font-semibold">Nothing here</h1>
      <p className="text-zinc-600">
        This page, or the record it names, does not exist in this tenant. It may have been removed, or the link may be mistyped.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link href="/" className="btn-primary">
          Go to the overview
        </Link>
        <Link href="/traces" className="btn-secondary">
          Traces
        </Link>
      </div>
    </div>
  );
}
