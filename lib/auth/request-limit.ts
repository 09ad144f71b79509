import { db, isUniqueViolation } from '../db';
import { RATE_LIMIT_LONGEST_WINDOW_MS } from './prune-rate-limits';

/**
 * A fixed-window limit on Toolgate's own unauthenticated endpoints (the password reset request),
 * counted in Better Auth's RateLimit table under a `toolgate:` key, so every instance counts a
 * caller together and the pruning job clears old rows. Each step is one conditional write, so
 * racing requests cannot both take the last slot.
 */
export async function takeRequestSlot(options: {
  key: string;
  max: number;
  windowMs: number;
  now?: number;
}): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  if (options.windowMs > RATE_LIMIT_LONGEST_WINDOW_MS) throw new Error('a window longer than the pruning keeps rows');
  const key = `toolgate:${options.key}`;
  const now = options.now ?? Date.now();
  const windowStart = BigInt(now - options.windowMs);
  for (let attempt = 0; attempt < 3; attempt++) {
    const counted = await db().rateLimit.updateMany({
      where: { key, lastRequest: { gt: windowStart }, count: { lt: options.max } },
      data: { count: { increment: 1 } },
    });
    if (counted.count === 1) return { allowed: true };
    const restarted = await db().rateLimit.updateMany({
      where: { key, lastRequest: { lte: windowStart } },
      data: { count: 1, lastRequest: BigInt(now) },
    });
    if (restarted.count === 1) return { allowed: true };
    const row = await db().rateLimit.findUnique({ where: { key }, select: { lastRequest: true } });
    if (row) {
      const retryAfterMs = Number(row.lastRequest) + options.windowMs - now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    try {
      await db().rateLimit.create({ data: { key, count: 1, lastRequest: BigInt(now) } });
      return { allowed: true };
    } catch (error) {
      // Another request made the row a moment ago: count against it.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return { allowed: false, retryAfterSeconds: 1 };
}
