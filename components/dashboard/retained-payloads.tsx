import Link from 'next/link';
import type { RetainedView } from '@/lib/retention/retained-view';

const PARTS = [
  ['arguments', 'Arguments'],
  ['transformed_arguments', 'Rewritten arguments'],
  ['context', 'Context'],
  ['result', 'Result'],
  ['error', 'Error'],
] as const;

/**
 * A record's raw payloads as argument retention kept them (sensitive paths show as
 * "[REDACTED]", as stored), each collapsed; or why there are none any more.
 */
export function RetainedPayloads({ retained }: { retained: RetainedView | null }) {
  if (!retained) return null;
  if (retained.status === 'purged') {
    return (
      <p className="mt-3 text-xs text-zinc-500" data-testid="record-payload-purged">
        Payloads <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-medium text-zinc-700">purged</span> after the tenant&apos;s{' '}
        <Link href="/settings" className="text-brand hover:underline">
          retention window
        </Link>
        ; their digest stays in the hash chain.
      </p>
    );
  }
  if (retained.too_large) return <p className="mt-3 text-xs text-zinc-500">Payloads kept, too large to show here.</p>;
  const parts = PARTS.filter(([key]) => retained[key] !== undefined);
  if (parts.length === 0) return null;
  return (
    <div className="mt-3 space-y-1" data-testid="record-payloads">
      {parts.map(([key, label]) => (
        <details key={key} className="rounded-md border border-zinc-200" data-testid={`record-payload-${key}`}>
          <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-zinc-700">{label}</summary>
          {retained.as_sent?.includes(key) ? (
            <>
              <p className="border-t border-zinc-100 px-3 pt-2 text-xs text-amber-800" data-testid="record-payload-as-sent">
                Holds a number a double cannot hold; shown as the agent sent it.
              </p>
              <pre className="max-h-80 overflow-auto bg-zinc-50 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
                {String(retained[key])}
              </pre>
            </>
          ) : (
            <pre className="max-h-80 overflow-auto border-t border-zinc-100 bg-zinc-50 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
              {JSON.stringify(retained[key], null, 2)}
            </pre>
          )}
        </details>
      ))}
    </div>
  );
}
