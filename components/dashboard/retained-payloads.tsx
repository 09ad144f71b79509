import Link from 'next/link';
import type { RetainedPart, RetainedView } from '@/lib/retention/retained-view';

export const PART_LABELS: Record<RetainedPart, string> = {
  arguments: 'Arguments',
  transformed_arguments: 'Rewritten arguments',
  context: 'Context',
  result: 'Result',
  error: 'Error',
};

const PARTS: RetainedPart[] = ['arguments', 'transformed_arguments', 'context', 'result', 'error'];

/**
 * A record's raw payloads as argument retention kept them (sensitive paths show as
 * "[REDACTED]", as stored), each collapsed; or why there are none: never kept (retention was
 * off for the call) or purged since. `expected` says whether this kind of record has payloads
 * at all (a validate/pre or validate/post has arguments; an approval's decision may have none).
 */
export function RetainedPayloads({ retained, expected = false }: { retained: RetainedView | null; expected?: boolean }) {
  if (!retained) {
    if (!expected) return null;
    return (
      <p className="mt-3 text-xs text-zinc-500" data-testid="record-payload-not-retained">
        Arguments and results <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-medium text-zinc-700">not retained</span>: argument
        retention was off for this call (
        <Link href="/settings" className="text-brand underline">
          settings
        </Link>
        ); only their digest is in the hash chain.
      </p>
    );
  }
  if (retained.status === 'purged') {
    return (
      <p className="mt-3 text-xs text-zinc-500" data-testid="record-payload-purged">
        Payloads <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-medium text-zinc-700">purged</span> after the tenant&apos;s{' '}
        <Link href="/settings" className="text-brand underline">
          retention window
        </Link>
        ; their digest stays in the hash chain.
      </p>
    );
  }
  if (retained.too_large) return <p className="mt-3 text-xs text-zinc-500">Payloads kept, too large to show here.</p>;
  const parts = PARTS.filter((key) => retained[key] !== undefined);
  if (parts.length === 0) return null;
  return (
    <div className="mt-3 space-y-1" data-testid="record-payloads">
      {parts.map((key) => (
        <PayloadPart key={key} retained={retained} part={key} testId={`record-payload-${key}`} />
      ))}
    </div>
  );
}

/** One kept part, collapsed under its label. */
export function PayloadPart({
  retained,
  part,
  testId,
  label = PART_LABELS[part],
}: {
  retained: Extract<RetainedView, { status: 'kept' }>;
  part: RetainedPart;
  testId: string;
  label?: string;
}) {
  return (
    <details className="rounded-md border border-zinc-200" data-testid={testId}>
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-zinc-700">{label}</summary>
      {retained.as_sent?.includes(part) ? (
        <>
          <p className="border-t border-zinc-100 px-3 pt-2 text-xs text-amber-800" data-testid="record-payload-as-sent">
            Holds a number a double cannot hold; shown as the agent sent it.
          </p>
          <pre className="max-h-80 overflow-auto bg-zinc-50 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
            {String(retained[part])}
          </pre>
        </>
      ) : (
        <pre className="max-h-80 overflow-auto border-t border-zinc-100 bg-zinc-50 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">
          {JSON.stringify(retained[part], null, 2)}
        </pre>
      )}
    </details>
  );
}
