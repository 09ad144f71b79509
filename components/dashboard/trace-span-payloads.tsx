import type { RetainedPart, RetainedView } from '@/lib/retention/retained-view';
import type { TraceSpan } from '@/lib/traces/build-trace-spans';
import { PART_LABELS, PayloadPart } from './retained-payloads';

/**
 * Which kept payloads belong to which span: what went into a check beside it, what came out
 * of the tool beside the result checks, an approver's edit beside the decision. The policy span
 * shares the validate/pre record with the validation span, which shows them once.
 */
const SPAN_PARTS: Partial<Record<TraceSpan['kind'], { parts: RetainedPart[]; missing: string }>> = {
  validation: { parts: ['arguments', 'transformed_arguments', 'context'], missing: 'arguments' },
  post_validation: { parts: ['result', 'error'], missing: 'result' },
  approval_decision: { parts: ['transformed_arguments'], missing: '' },
  check: { parts: ['arguments', 'context'], missing: 'arguments' },
};

const SPAN_LABELS: Partial<Record<RetainedPart, string>> = { transformed_arguments: 'Rewritten arguments' };

/** A span's arguments or result as retained (redacted as stored), collapsed; or that they were not retained. */
export function TraceSpanPayloads({ span, retained }: { span: TraceSpan; retained: RetainedView | null | undefined }) {
  const shape = SPAN_PARTS[span.kind];
  if (!shape || span.seq === null || retained === undefined) return null;
  const note = (text: string) => (
    <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600" data-testid="span-payload-missing">
      {text}
    </span>
  );
  if (retained === null) return shape.missing ? note(`${shape.missing} not retained`) : null;
  if (retained.status === 'purged') return note(`${shape.missing || 'payloads'} purged`);
  if (retained.too_large) return note('kept, too large to show here');
  const parts = shape.parts.filter((part) => retained[part] !== undefined);
  if (parts.length === 0) return shape.missing ? note(`no ${shape.missing} kept`) : null;
  return (
    <div className="flex flex-wrap items-start gap-2">
      {parts.map((part) => (
        <div key={part} className="min-w-48 flex-1">
          <PayloadPart
            retained={retained}
            part={part}
            testId={`span-payload-${part}`}
            label={
              span.kind === 'approval_decision' && part === 'transformed_arguments'
                ? 'Approver’s edit'
                : (SPAN_LABELS[part] ?? PART_LABELS[part])
            }
          />
        </div>
      ))}
    </div>
  );
}
