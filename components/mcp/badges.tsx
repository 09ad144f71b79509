import type { DriftClass } from '@/lib/mcp/drift-findings';
import type { McpToolStatus } from '@/lib/mcp/servers/mcp-server-view';

const BADGE = 'inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset';

const STATUS: Record<McpToolStatus, { tone: string; label: string; title: string }> = {
  published: {
    tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
    label: 'published',
    title: 'Its contract is published: the gateway lists it and checks every call.',
  },
  unpublished: {
    tone: 'bg-amber-50 text-amber-800 ring-amber-200',
    label: 'unpublished',
    title: 'Imported as a draft contract: refused until an author publishes it.',
  },
  drifted: {
    tone: 'bg-red-50 text-red-700 ring-red-200',
    label: 'drifted',
    title: 'The upstream changed its definition: refused until an author reviews and accepts the change.',
  },
};

export function ToolStatusBadge({ status }: { status: McpToolStatus }) {
  const { tone, label, title } = STATUS[status];
  return (
    <span className={`${BADGE} ${tone}`} title={title} data-testid="mcp-tool-status">
      {label}
    </span>
  );
}

// Cosmetic is the one class a server may accept on its own; the rest need a person, and the
// ones that widen what the tool may do or say to the model are the loudest.
const DRIFT: Record<DriftClass, { tone: string; label: string }> = {
  cosmetic: { tone: 'bg-zinc-100 text-zinc-700 ring-zinc-200', label: 'cosmetic' },
  schema_widened: { tone: 'bg-amber-50 text-amber-800 ring-amber-200', label: 'schema widened' },
  schema_narrowed: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', label: 'schema narrowed' },
  side_effect_raised: { tone: 'bg-red-50 text-red-700 ring-red-200', label: 'side effect raised' },
  side_effect_lowered: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', label: 'side effect lowered' },
  instructions_added: { tone: 'bg-red-50 text-red-700 ring-red-200', label: 'instructions added' },
};

export function DriftClassBadge({ value }: { value: DriftClass }) {
  const { tone, label } = DRIFT[value];
  return (
    <span className={`${BADGE} ${tone}`} data-testid="drift-class" data-class={value}>
      {label}
    </span>
  );
}

export function DriftClassBadges({ classes }: { classes: readonly DriftClass[] }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {classes.map((value) => (
        <DriftClassBadge key={value} value={value} />
      ))}
    </span>
  );
}
