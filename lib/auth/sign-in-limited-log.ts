import { log } from '../log';

/** One line per address at most this often: enough to see who is guessing, not a line a guess. */
const LOG_EVERY_MS = 60_000;
/** Addresses remembered; past it the one logged longest ago is forgotten (a botnet cannot grow memory). */
const MAX_ADDRESSES = 10_000;

const holder = globalThis as unknown as { toolgateSignInLimitedLog?: Map<string, number> };

/**
 * Logs that Better Auth refused a caller's sign-in for too many attempts (its 429), naming the
 * caller's address (lib/http/client-address.ts), which Better Auth's own "Invalid password"
 * line does not. Returns whether a line was written.
 */
export function noteSignInLimited(address: string | null, path: string, now = Date.now()): boolean {
  holder.toolgateSignInLimitedLog ??= new Map();
  const logged = holder.toolgateSignInLimitedLog;
  const key = address ?? 'unknown';
  const last = logged.get(key);
  if (last !== undefined && now - last < LOG_EVERY_MS) return false;
  logged.delete(key);
  if (logged.size >= MAX_ADDRESSES) logged.delete(logged.keys().next().value as string);
  logged.set(key, now);
  log.warn('sign-in refused: too many attempts from one address', { client_address: key, path: path.slice(0, 200) });
  return true;
}

/** Forgets every address (tests). */
export function resetSignInLimitedLogForTests(): void {
  holder.toolgateSignInLimitedLog = undefined;
}
