import type { DiffLine } from '@/lib/mcp/definition-diff';

const TONE: Record<DiffLine['op'], string> = {
  '+': 'bg-emerald-50 text-emerald-900',
  '-': 'bg-red-50 text-red-900',
  ' ': 'text-zinc-700',
};

const LABEL: Record<DiffLine['op'], string> = { '+': 'added', '-': 'removed', ' ': 'unchanged' };

/**
 * The pinned and the upstream definition, line by line. The text is the upstream's and so
 * untrusted: React escapes it, and the diff already wrote hidden characters as \uXXXX escapes.
 */
export function DriftDiff({ lines }: { lines: DiffLine[] }) {
  const added = lines.filter((line) => line.op === '+').length;
  const removed = lines.filter((line) => line.op === '-').length;
  return (
    <div>
      <p className="mb-2 text-xs text-zinc-500">
        <span className="text-emerald-700">+{added}</span> <span className="text-red-700">−{removed}</span> lines: pinned definition → what
        the upstream lists now
      </p>
      <div className="max-h-[32rem] overflow-auto rounded-md border border-zinc-200 bg-white" data-testid="drift-diff">
        <pre className="min-w-max py-1 font-mono text-xs leading-5">
          {lines.map((line, index) => (
            <div key={index} className={`px-3 ${TONE[line.op]}`} data-op={LABEL[line.op]} data-testid="drift-diff-line">
              <span aria-hidden="true" className="mr-3 inline-block w-3 text-zinc-400 select-none">
                {line.op}
              </span>
              <span className="sr-only">{line.op === ' ' ? '' : `${LABEL[line.op]}: `}</span>
              {line.text}
            </div>
          ))}
        </pre>
      </div>
    </div>
  );
}
