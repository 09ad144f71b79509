import type { ReactNode } from 'react';

/**
 * What a page shows while the server reads its data (the route's loading.tsx): the page's own
 * outline, so a click answers at once and nothing jumps when the page arrives. The shapes are
 * hidden from assistive technology; one status line says what is loading.
 */
export function Bone({ className = '' }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-zinc-200/70 ${className}`} />;
}

export function PageSkeleton({
  title,
  what,
  actions = 0,
  back = false,
  children,
}: {
  /** The page's heading when it is known before the data (list pages); a bone otherwise. */
  title?: string;
  /** Read out while loading: "Loading traces…". */
  what: string;
  /** How many buttons sit beside the heading. */
  actions?: number;
  /** Detail pages start with a link back to their list. */
  back?: boolean;
  children: ReactNode;
}) {
  return (
    <div aria-busy="true" data-testid="page-loading">
      {back && <Bone className="mb-3 h-4 w-24" />}
      <div className="flex items-start justify-between gap-4">
        {title ? <h1 className="text-2xl font-semibold tracking-tight">{title}</h1> : <Bone className="h-8 w-64 max-w-full" />}
        {actions > 0 && (
          <div className="flex gap-2">
            {Array.from({ length: actions }, (_, i) => (
              <Bone key={i} className="h-9 w-28" />
            ))}
          </div>
        )}
      </div>
      <p role="status" className="mt-1 mb-6 text-sm text-zinc-500">
        Loading {what}…
      </p>
      {children}
    </div>
  );
}

/** The filter bar of the list pages (components/dashboard/filter-fields.tsx). */
export function FilterBarSkeleton({ fields }: { fields: number }) {
  return (
    <div aria-hidden="true" className="card mb-6 flex flex-wrap items-end gap-3 p-4">
      {Array.from({ length: fields }, (_, i) => (
        <div key={i} className="flex flex-col gap-1">
          <Bone className="h-3 w-16" />
          <Bone className="h-9 w-36" />
        </div>
      ))}
      <Bone className="h-9 w-32" />
    </div>
  );
}

/** A table card: a header row and `rows` rows of `columns` cells. */
export function TableSkeleton({ columns, rows = 8 }: { columns: number; rows?: number }) {
  const cells = Array.from({ length: columns }, (_, i) => i);
  const grid = { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` };
  return (
    <div aria-hidden="true" className="card overflow-hidden">
      <div className="grid gap-4 border-b border-zinc-200 px-4 py-3" style={grid}>
        {cells.map((i) => (
          <Bone key={i} className="h-3 w-16" />
        ))}
      </div>
      <div className="divide-y divide-zinc-100">
        {Array.from({ length: rows }, (_, row) => (
          <div key={row} className="grid gap-4 px-4 py-3" style={grid}>
            {cells.map((i) => (
              <Bone key={i} className={`h-4 ${(row + i) % 3 === 0 ? 'w-3/4' : 'w-1/2'}`} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

/** A stack of cards (contracts, approvals, servers), each a title line and a few of text. */
export function CardListSkeleton({ cards = 3, lines = 3 }: { cards?: number; lines?: number }) {
  return (
    <div aria-hidden="true" className="space-y-4">
      {Array.from({ length: cards }, (_, card) => (
        <div key={card} className="card p-5">
          <div className="flex items-center justify-between gap-4">
            <Bone className="h-5 w-48" />
            <Bone className="h-4 w-24" />
          </div>
          {Array.from({ length: lines }, (_, line) => (
            <Bone key={line} className={`mt-3 h-3 ${line % 2 === 0 ? 'w-full' : 'w-2/3'}`} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** A plain box of a given height: a chart, a form, a panel. */
export function BoxSkeleton({ className = 'h-40' }: { className?: string }) {
  return <Bone className={`card border-0 ${className}`} />;
}

/** The studio: toolbar, the editor beside its side panel, the problems below. */
export function StudioSkeleton() {
  return (
    <div aria-hidden="true" className="space-y-3">
      <div className="card flex flex-wrap items-center gap-2 p-2">
        {Array.from({ length: 5 }, (_, i) => (
          <Bone key={i} className="h-8 w-24" />
        ))}
      </div>
      <div className="grid min-w-0 grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Bone className="h-[60vh] min-h-80" />
        <div className="space-y-3">
          <Bone className="h-40" />
          <Bone className="h-56" />
        </div>
      </div>
      <Bone className="h-24" />
    </div>
  );
}
