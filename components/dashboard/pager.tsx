import Link from 'next/link';

/** Keyset paging: "older" follows the cursor; "newest" drops it. There is no page number to jump to. */
export function Pager({ newestHref, olderHref, onFirstPage }: { newestHref: string; olderHref: string | null; onFirstPage: boolean }) {
  if (onFirstPage && !olderHref) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
      {onFirstPage ? (
        <span />
      ) : (
        <Link href={newestHref} className="btn-secondary">
          ← Newest
        </Link>
      )}
      {olderHref ? (
        <Link href={olderHref} className="btn-secondary" data-testid="page-older">
          Older →
        </Link>
      ) : (
        <span className="text-zinc-500">No older entries</span>
      )}
    </nav>
  );
}
