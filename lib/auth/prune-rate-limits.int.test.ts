import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { pruneRateLimits, RATE_LIMIT_LONGEST_WINDOW_MS } from './prune-rate-limits';

describe('pruneRateLimits', () => {
  it('removes rate-limit rows past the longest window in batches and keeps those a window could still count', async () => {
    const now = Date.parse('2026-12-06T12:00:00Z');
    const ages = [10 * 60_000, RATE_LIMIT_LONGEST_WINDOW_MS + 1, RATE_LIMIT_LONGEST_WINDOW_MS + 5, RATE_LIMIT_LONGEST_WINDOW_MS, 9_000, 0];
    await db().rateLimit.createMany({
      data: ages.map((age, i) => ({ key: `127.0.0.${i}|/sign-in/email`, count: 3, lastRequest: BigInt(now - age) })),
    });
    expect(await pruneRateLimits({ now, batchSize: 2 })).toBe(3);
    const left = await db().rateLimit.findMany({ orderBy: { lastRequest: 'asc' } });
    expect(left.map((row) => row.key)).toEqual(['127.0.0.3|/sign-in/email', '127.0.0.4|/sign-in/email', '127.0.0.5|/sign-in/email']);
    expect(await pruneRateLimits({ now })).toBe(0);
  });
});
