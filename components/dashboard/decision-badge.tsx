const TONES: Record<string, string> = {
  allow: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  approved: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  transform: 'bg-sky-50 text-sky-800 ring-sky-200',
  require_approval: 'bg-amber-50 text-amber-800 ring-amber-200',
  escalate: 'bg-amber-50 text-amber-800 ring-amber-200',
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  deny: 'bg-red-50 text-red-700 ring-red-200',
  denied: 'bg-red-50 text-red-700 ring-red-200',
  expired: 'bg-zinc-100 text-zinc-600 ring-zinc-200',
};

/** A decision or approval status, coloured by what it means for the call. */
export function DecisionBadge({ decision }: { decision: string }) {
  const tone = TONES[decision] ?? 'bg-zinc-100 text-zinc-700 ring-zinc-200';
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${tone}`}>
      {decision.replace('_', ' ')}
    </span>
  );
}
