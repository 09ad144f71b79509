// PostgreSQL only: the session settings Toolgate's connections start with (./postgres-session.ts).
import { describe, expect, it } from 'vitest';
import { db } from '../db';

describe('PostgreSQL connections', () => {
  it('run without JIT, which compiled the overview counts for 279 of their 321 ms at 10M records', async () => {
    const [server] = await db().$queryRaw<{ jit: string }[]>`SHOW jit`;
    expect(server?.jit).toBe('off');
    // Every connection of the pool, not only the first one used.
    const shown = await Promise.all(
      Array.from({ length: 4 }, () => db().$transaction(async (tx) => tx.$queryRaw<{ jit: string }[]>`SHOW jit`)),
    );
    expect(shown.map(([row]) => row?.jit)).toEqual(['off', 'off', 'off', 'off']);
  });
});
