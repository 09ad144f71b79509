import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { PostgresEvidenceStore } from '@/lib/evidence/pg-evidence-store';
import type { EvidenceInput } from '@/lib/evidence/evidence-input';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { createTestTenant } from '@/lib/testing/fixtures';

// PostgreSQL only: the evidence commit when its connection goes away (a failover, an operator's
// pg_terminate_backend). Before, the connection's 'error' event went unheard and killed the
// writer thread, and every record in flight was answered 503, committed ones included.

let n = 0;
const batch = (tenantId: string, size: number): EvidenceInput[] =>
  Array.from({ length: size }, () => {
    n++;
    return {
      tenantId,
      kind: 'pre',
      requestId: `loss-r-${n}`,
      traceId: `loss-t-${n}`,
      callId: `loss-c-${n}`,
      tool: 'orders.lookup',
      argsHash: '0'.repeat(64),
      decision: 'allow',
      valid: true,
      errors: [],
      warnings: [],
      durationMs: 1,
    };
  });

const stores: PostgresEvidenceStore[] = [];
const store = () => {
  const made = new PostgresEvidenceStore(process.env.DATABASE_URL as string, () => undefined);
  stores.push(made);
  return made;
};
afterEach(async () => {
  vi.restoreAllMocks();
  for (const made of stores.splice(0)) await made.close();
});

/** Makes the next COMMIT sent on any connection lose its answer: sent (or not) first, then the connection "fails". */
function loseNextCommitAnswer(options: { sent: boolean }) {
  const original = pg.Client.prototype.query;
  let done = false;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    if (!done && args[0] === 'COMMIT') {
      done = true;
      const lost = () => Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), {}));
      if (!options.sent) return lost();
      return (original as (...a: unknown[]) => Promise<unknown>).apply(this, args).then(lost);
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
}

describe('the PostgreSQL evidence commit when its connection is lost', () => {
  it('answers records whose COMMIT went through as recorded, though its answer was lost', async () => {
    const { tenant } = await createTestTenant();
    const writer = store();
    await writer.commit(batch(tenant.id, 2));
    loseNextCommitAnswer({ sent: true });
    const recorded = await writer.commit(batch(tenant.id, 3));
    expect(recorded.map((r) => r?.seq)).toEqual([3, 4, 5]);
    expect(await db().evidence.count({ where: { tenant: { tenantId: tenant.id } } })).toBe(5);
    expect((await writer.commit(batch(tenant.id, 1))).map((r) => r?.seq)).toEqual([6]);
    expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 6 });
  });

  it('fails records whose COMMIT never reached the database, stores none of them, and goes on', async () => {
    const { tenant } = await createTestTenant();
    const writer = store();
    await writer.commit(batch(tenant.id, 2));
    loseNextCommitAnswer({ sent: false });
    await expect(writer.commit(batch(tenant.id, 3))).rejects.toThrow(/Connection terminated/);
    vi.restoreAllMocks();
    // The connection holding the open transaction was discarded, not handed to the next commit.
    expect((await writer.commit(batch(tenant.id, 1))).length).toBe(1);
    expect(await db().evidence.count({ where: { tenant: { tenantId: tenant.id } } })).toBe(3);
    expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 3 });
  });

  it('survives the server ending its connection mid-commit: that batch fails, the next one commits', { timeout: 20_000 }, async () => {
    const { tenant } = await createTestTenant();
    const writer = store();
    await writer.commit(batch(tenant.id, 2));
    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Evidence" IN ACCESS EXCLUSIVE MODE');
      // Settled as it happens (it fails while this test is still ending its connection).
      const stalled = writer.commit(batch(tenant.id, 2)).then(
        () => null,
        (error: unknown) => error,
      );
      let pid: number | undefined;
      for (let i = 0; i < 500 && pid === undefined; i++) {
        // Not on the locker's connection: inside its transaction pg_stat_activity is one snapshot.
        const waiting = await db().$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO "Evidence"%'`;
        pid = waiting[0]?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(pid).toBeDefined();
      await locker.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await stalled).toMatchObject({ code: '57P01' });
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    expect((await writer.commit(batch(tenant.id, 2))).length).toBe(2);
    expect(await verifyEvidenceChain({ tenantId: tenant.id })).toMatchObject({ valid: true, records: 4 });
  });
});
