/**
 * The vocabulary shared by limits and the CEL history functions: whose calls are counted
 * together (the scope) and over how long (the window). Windows are written as a number and a
 * unit (`30s`, `10m`, `1h`, `7d`) and kept as seconds.
 */

export const HISTORY_SCOPES = ['key', 'user', 'session', 'tenant'] as const;
export type HistoryScope = (typeof HISTORY_SCOPES)[number];

export const WINDOW_PATTERN = /^([1-9][0-9]{0,6})(s|m|h|d)$/;
/** History is kept for 31 days: a longer window could never be filled. */
export const MAX_WINDOW_SECONDS = 31 * 86_400;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

export type WindowParse = { ok: true; seconds: number } | { ok: false; message: string };

export function parseWindow(text: string): WindowParse {
  const match = WINDOW_PATTERN.exec(text);
  if (!match) return { ok: false, message: `"${text.slice(0, 40)}" is not a window: write a number and s, m, h or d, e.g. "10m" or "1h".` };
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  if (seconds > MAX_WINDOW_SECONDS)
    return { ok: false, message: `The window "${text}" is longer than 31 days, the history Toolgate keeps.` };
  return { ok: true, seconds };
}

export function isHistoryScope(value: unknown): value is HistoryScope {
  return typeof value === 'string' && (HISTORY_SCOPES as readonly string[]).includes(value);
}

// Bucket sizes that divide a day evenly, so buckets line up across windows and instances.
const BUCKET_SIZES = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400];

/**
 * Calls are counted in buckets of about a sixtieth of the window: a window reads at most 61
 * counter rows, and a call leaves it between `window` and `window` plus one bucket after it
 * was made (never earlier, so a limit is never looser than written).
 */
export function bucketSecondsFor(windowSeconds: number): number {
  const wanted = windowSeconds / 60;
  return BUCKET_SIZES.find((size) => size >= wanted) ?? 86_400;
}

export function bucketOf(epochSeconds: number, bucketSeconds: number): number {
  return Math.floor(epochSeconds / bucketSeconds) * bucketSeconds;
}

/** The oldest bucket a window ending now reads (it may start up to one bucket before the window). */
export function windowStartBucket(nowMs: number, windowSeconds: number, bucketSeconds: number): number {
  return bucketOf(Math.floor(nowMs / 1000) - windowSeconds, bucketSeconds);
}
