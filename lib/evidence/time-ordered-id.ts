import { randomFillSync } from 'node:crypto';

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
  return timePart(now) + randomPart();
}

// Each id's random part costs a few operations on a pooled buffer: one id is made for every
// request and every evidence record, and building it from a fresh randomUUID took about 0.9 µs.
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;
let lastTime = -1;
let lastTimePart = '';

function timePart(now: number): string {
  if (now === lastTime) return lastTimePart;
  let time = '';
  for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = DIGITS[t % 32] + time;
  lastTime = now;
  lastTimePart = time;
  return time;
}

/** 80 random bits as 16 digits: two 40-bit halves of five pooled bytes each. */
function randomPart(): string {
  if (poolAt + 10 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  let out = '';
  for (let half = 0; half < 2; half++, poolAt += 5) {
    // 40 bits do not fit a 32-bit integer: the high 8 bits and the low 32 are read apart.
    const high = POOL[poolAt] as number;
    const low = POOL.readUInt32BE(poolAt + 1);
    out +=
      DIGITS.charAt(high >>> 3) +
      DIGITS.charAt(((high & 7) << 2) | (low >>> 30)) +
      DIGITS.charAt((low >>> 25) & 31) +
      DIGITS.charAt((low >>> 20) & 31) +
      DIGITS.charAt((low >>> 15) & 31) +
      DIGITS.charAt((low >>> 10) & 31) +
      DIGITS.charAt((low >>> 5) & 31) +
      DIGITS.charAt(low & 31);
  }
  return out;
}
