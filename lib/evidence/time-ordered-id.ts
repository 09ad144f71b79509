import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Evidence and violation
 * rows are keyed by it so each insert lands at the right edge of the primary-key index instead
 * of on a random page: fewer pages dirtied per commit, on SQLite and PostgreSQL alike.
 */
export function timeOrderedId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID's version nibble becomes 7; its variant bits and 74 random bits stay.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
