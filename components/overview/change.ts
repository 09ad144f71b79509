/**
 * How a count moved from one window to the same window a day earlier. `worse` says whether a
 * rise is bad news (refusals, failures) or just more traffic (calls), for the colour.
 */
export interface Change {
  text: string;
  tone: 'neutral' | 'better' | 'worse';
}

export function describeChange(current: number, previous: number, rising: 'worse' | 'neutral'): Change {
  if (current === previous) return { text: current === 0 ? '—' : 'no change', tone: 'neutral' };
  const diff = current - previous;
  const sign = diff > 0 ? '+' : '−';
  const amount = `${sign}${Math.abs(diff).toLocaleString('en-US')}`;
  const tone = rising === 'neutral' ? 'neutral' : diff > 0 ? 'worse' : 'better';
  if (previous === 0) return { text: `${amount} (from 0)`, tone };
  const percent = (Math.abs(diff) / previous) * 100;
  const shown = percent < 1 ? '<1' : percent < 10 ? percent.toFixed(1).replace(/\.0$/, '') : Math.round(percent).toLocaleString('en-US');
  return { text: `${amount} (${sign}${shown}%)`, tone };
}

export const CHANGE_TONES: Record<Change['tone'], string> = {
  neutral: 'text-zinc-600',
  better: 'text-emerald-700',
  worse: 'text-red-700',
};

/** "3 min", "2 h 05 min", "4 days": how long ago `iso` was at `now` (both server times). */
export function formatAge(iso: string, now: string): string {
  const seconds = Math.max(0, Math.round((new Date(now).getTime() - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} days`;
}
