/** Server-rendered times are UTC (the server's zone says nothing about the reader's). */
export function formatInstant(iso: string | null): string {
  if (!iso) return '—';
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** A duration at the precision that matters for it: checks take microseconds, approvals minutes. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A hash or id cut to what a person compares by eye; the whole value goes in the title. */
export function short(value: string | null, length = 12): string {
  if (!value) return '—';
  return value.length > length ? `${value.slice(0, length)}…` : value;
}
