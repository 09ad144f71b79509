const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Past a month, "43 days ago" is harder to place than the date itself. */
const RELATIVE_DAYS_MAX = 30;

/** The exact instant in UTC, to the second: what a reader compares with logs and the API. */
export function formatExactUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * How long ago (or how soon) `date` is from `now`, in the unit a person reads at a glance:
 * "just now", "3 min ago", "5 h ago", "2 days ago", "in 6 days"; older than a month, the UTC date.
 * Units are whole and rounded down, so a time never reads as further away than it is.
 */
export function formatRelative(date: Date, now: number): string {
  const delta = now - date.getTime();
  const distance = Math.abs(delta);
  if (distance < MINUTE) return 'just now';
  let amount: string;
  if (distance < HOUR) amount = `${Math.floor(distance / MINUTE)} min`;
  else if (distance < DAY) amount = `${Math.floor(distance / HOUR)} h`;
  else if (distance < (RELATIVE_DAYS_MAX + 1) * DAY) {
    const days = Math.floor(distance / DAY);
    amount = `${days} ${days === 1 ? 'day' : 'days'}`;
  } else return date.toISOString().slice(0, 10);
  return delta >= 0 ? `${amount} ago` : `in ${amount}`;
}
