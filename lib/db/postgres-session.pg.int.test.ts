// PostgreSQL only: the session settings Toolgate's connections start with (./postgres-session.ts).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '../db';
import { resetEnvForTests } from '../env';
import { call } from '../testing/api-client';
import { createTestTenant } from '../testing/fixtures';
import { listWebhooksHandler as listWebhooks } from '../api/handlers/webhooks';

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

describe('a statement held up by a lock', () => {
  afterAll(async () => {
    delete process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS;
    resetEnvForTests();
    await disconnectDb();
  });

  it('is cancelled past TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS and answered 503 with Retry-After, not held for the lock', async () => {
    expect((await db().$queryRaw<{ statement_timeout: string }[]>`SHOW statement_timeout`)[0]?.statement_timeout).toBe('30s');
    process.env.TOOLGATE_DB_STATEMENT_TIMEOUT_SECONDS = '1';
    resetEnvForTests();
    await disconnectDb();
    const t = await createTestTenant();
    expect((await call(listWebhooks, { key: t.adminKey })).status).toBe(200);

    // An operator's transaction holding the table, as a long migration or a manual fix would.
    const operator = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await operator.connect();
    try {
      await operator.query('BEGIN');
      await operator.query('LOCK TABLE "Webhook" IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const held = await call(listWebhooks, { key: t.adminKey });
      const waited = Date.now() - started;
      expect([held.status, held.body.error?.code, held.headers.get('retry-after')]).toEqual([503, 'unavailable', '2']);
      // Cancelled at the bound (1 s), where it waited for the lock as long as it was held before.
      expect(waited).toBeGreaterThanOrEqual(900);
      await operator.query('ROLLBACK');
    } finally {
      await operator.end();
    }
    expect((await call(listWebhooks, { key: t.adminKey })).status).toBe(200);
  }, 30_000);
});
