const TONES: Record<string, string> = {
  published: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  active: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  draft: 'bg-amber-50 text-amber-800 ring-amber-200',
  deprecated: 'bg-zinc-100 text-zinc-600 ring-zinc-200',
  // Evaluated and recorded beside the served version, deciding nothing.
  shadow: 'bg-violet-50 text-violet-800 ring-violet-200',
  retired: 'bg-zinc-100 text-zinc-500 ring-zinc-200',
  revoked: 'bg-red-50 text-red-700 ring-red-200',
  expired: 'bg-zinc-100 text-zinc-600 ring-zinc-200',
};

export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status] ?? 'bg-zinc-100 text-zinc-700 ring-zinc-200';
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>{status}</span>;
}
