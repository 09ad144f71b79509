'use client';

import { useSyncExternalStore } from 'react';
import { formatExactUtc, formatRelative } from './relative-time-format';

/**
 * One clock for every relative time on the page: a table of 50 rows ticks once a minute, not 50
 * times. It runs only while some time is shown, and reads the time afresh when it starts again.
 */
const TICK_MS = 60_000;
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const clientNow = () => now;
// The server renders with its own clock; the client's may read a minute further on, which is
// why the text (and only the text) may differ when the page hydrates.
const serverNow = () => Date.now();

/**
 * "3 min ago", with the exact UTC time on hover (title) and for machines (`<time dateTime>`).
 * Takes an ISO string or a Date, as lists get either; a missing time renders `fallback`.
 */
export function RelativeTime({ date, fallback = '—', className }: { date: string | Date | null; fallback?: string; className?: string }) {
  const current = useSyncExternalStore(subscribe, clientNow, serverNow);
  const instant = date === null ? null : typeof date === 'string' ? new Date(date) : date;
  if (!instant || Number.isNaN(instant.getTime())) return <>{fallback}</>;
  return (
    <time dateTime={instant.toISOString()} title={formatExactUtc(instant)} className={className} suppressHydrationWarning>
      {formatRelative(instant, current)}
    </time>
  );
}
