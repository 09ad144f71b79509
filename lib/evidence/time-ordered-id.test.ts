import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id';

const DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';
const timeOf = (id: string) => [...id.slice(0, 10)].reduce((t, c) => t * 32 + DIGITS.indexOf(c), 0);

describe('timeOrderedId', () => {
  it('is a lower-case ULID carrying the millisecond timestamp', () => {
    const at = Date.UTC(2026, 10, 22, 1, 2, 3, 456);
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    expect(timeOf(id)).toBe(at);
    expect(timeOf(timeOrderedId(0))).toBe(0);
    expect(timeOf(timeOrderedId(2 ** 48 - 1))).toBe(2 ** 48 - 1);
  });

  it('sorts by time across milliseconds and does not repeat', () => {
    const earlier = Array.from({ length: 100 }, () => timeOrderedId(1_000));
    const later = timeOrderedId(1_001);
    expect(earlier.every((id) => id < later)).toBe(true);
    expect(new Set(earlier).size).toBe(100);
  });

  it('spreads its random part over every digit in every place, and does not repeat across refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => timeOrderedId(5));
    expect(new Set(ids).size).toBe(ids.length);
    for (let place = 10; place < 26; place++) expect(new Set(ids.map((id) => id[place])).size, `place ${place}`).toBe(32);
  });

  it('sorts after the UUIDv7 ids written before it, so the key index keeps growing at its right edge', () => {
    // A UUIDv7 from the day the ids changed, and one from 2039.
    const uuid = (ms: number) => `${ms.toString(16).padStart(12, '0').slice(0, 8)}-0000-7000-8000-000000000000`;
    for (const ms of [Date.UTC(2026, 10, 27), Date.UTC(2039, 0, 1)]) expect(timeOrderedId(Date.UTC(2026, 10, 27)) > uuid(ms)).toBe(true);
  });
});
