import { log } from './log';

/** One line per minute at most for a failure that repeats: a database outage failed every job tick and every cache poll. */
export const REPEATED_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The cause of an error in one line. Prisma's messages run over several lines (the call, a
 * source excerpt with a file path, then the cause): the last line is the one that says why.
 */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const code = (error as { code?: unknown } | null)?.code;
  const last = lines.at(-1) ?? (error instanceof Error ? error.name : 'error');
  return `${typeof code === 'string' && !last.includes(code) ? `${code}: ` : ''}${last}`.slice(0, 300);
}

/**
 * Logs a failure that tends to repeat (a background job, a poll) the first time and then at most
 * once per interval for each key, with how many failures went unlogged, and one line when it
 * succeeds again. As the evidence writer logs its commit failures (evidence-unavailable.ts).
 */
export function repeatedFailureLog(message: string, intervalMs = REPEATED_FAILURE_LOG_INTERVAL_MS) {
  const state = new Map<string, { loggedAt: number; unlogged: number }>();
  return {
    failed(key: string, error: unknown, fields: Record<string, unknown> = {}, nowMs = Date.now()): boolean {
      const s = state.get(key) ?? { loggedAt: 0, unlogged: 0 };
      state.set(key, s);
      s.unlogged++;
      if (s.loggedAt !== 0 && nowMs - s.loggedAt < intervalMs) return false;
      log.error(message, { ...fields, error: errorLine(error), failures_since_last_line: s.unlogged });
      s.loggedAt = nowMs;
      s.unlogged = 0;
      return true;
    },
    succeeded(key: string, fields: Record<string, unknown> = {}): void {
      const s = state.get(key);
      if (!s) return;
      state.delete(key);
      log.info(`${message}: works again`, { ...fields, failures_since_last_line: s.unlogged });
    },
  };
}
