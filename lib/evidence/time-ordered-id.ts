import { randomUUID } from 'node:crypto';

/** Crockford's base32 in lower case: its order is byte order, and every collation's. */
const DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A ULID in lower case: 48 bits of Unix milliseconds in 10 characters, then 80 random bits in
 * 16. Evidence and violation rows are keyed by it so each insert lands at the right edge of the
 * primary-key index instead of on a random page: fewer pages dirtied per commit, on SQLite and
 * PostgreSQL alike. 26 characters, where the UUIDv7 used before took 36: the key's index 52 -> 40
 * bytes per record on SQLite (npm run bench:evidence-size; the table, which holds 7 records per
 * 4 KiB page either way, only shrinks once a row fits 8 to a page). Both kinds of id stay
 * valid; a ULID made after mid-2022 sorts after every UUIDv7 made before late 2039 (both begin
 * "01"; the ULID's third character is then "g" or later, the UUIDv7's at most "f"), so the index
 * keeps growing at its right edge.
 */
export function timeOrderedId(now = Date.now()): string {
  let time = '';
  for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = DIGITS[t % 32] + time;
  // 80 of randomUUID's 122 random bits, from groups without its version and variant digits.
  const uuid = randomUUID();
  const hex = uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(24, 32);
  let random = '';
  for (let start = 0; start < 20; start += 5) {
    let bits = parseInt(hex.slice(start, start + 5), 16);
    for (let i = 0; i < 4; i++, bits >>>= 5) random += DIGITS[bits & 31];
  }
  return time + random;
}
