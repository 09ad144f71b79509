import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id';

describe('timeOrderedId', () => {
  it('is a version-7 UUID carrying the millisecond timestamp', () => {
    const id = timeOrderedId(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
  });

  it('sorts by time across milliseconds and does not repeat', () => {
    const earlier = Array.from({ length: 100 }, () => timeOrderedId(1_000));
    const later = timeOrderedId(1_001);
    expect(earlier.every((id) => id < later)).toBe(true);
    expect(new Set(earlier).size).toBe(100);
  });
});
