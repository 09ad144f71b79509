import Link from 'next/link';
import { formatCount } from './format';

/**
 * A ranked list with bars relative to the first entry; each entry narrows the page to it. Codes
 * and tool ids (mono) wrap rather than being cut, since they are what a reader compares; names
 * are cut, with the whole one in the title.
 */
export function TopList({
  title,
  testId,
  rows,
}: {
  title: string;
  testId: string;
  rows: { label: string; count: number; href: string | null; mono?: boolean }[];
}) {
  const max = rows[0]?.count ?? 1;
  return (
    <section className="card p-4" data-testid={testId}>
      <h2 className="mb-2 text-sm font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-500">None in this range.</p>
      ) : (
        <ol className="space-y-1.5 text-sm">
          {rows.map((row) => (
            <li key={row.label}>
              <div className="flex items-baseline justify-between gap-2">
                {row.href ? (
                  <Link
                    href={row.href}
                    className={`min-w-0 text-brand hover:underline ${row.mono ? 'font-mono text-xs [overflow-wrap:anywhere]' : 'truncate'}`}
                    title={row.label}
                  >
                    {row.label}
                  </Link>
                ) : (
                  <span className={`min-w-0 ${row.mono ? 'font-mono text-xs [overflow-wrap:anywhere]' : 'truncate'}`} title={row.label}>
                    {row.label}
                  </span>
                )}
                <span className="text-zinc-700 tabular-nums">{formatCount(row.count)}</span>
              </div>
              <span className="mt-0.5 block h-1 rounded bg-zinc-100">
                <span className="block h-1 rounded bg-red-400" style={{ width: `${(row.count / max) * 100}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
