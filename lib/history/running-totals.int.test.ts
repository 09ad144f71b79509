// The counters' running totals against the rows they stand for: whatever order increments are
// committed in (late commits into older buckets included, with and without the newest row
// known to the transaction), a window's sums from two seeks equal the plain sum of its rows,
// also once older rows are pruned; the same through the request path's reader.
import { describe, expect, it } from 'vitest';
import { db, dbProvider } from '@/lib/db';
import type { EvidenceInput } from '@/lib/evidence/evidence-input';
import { createTestTenant } from '@/lib/testing/fixtures';
import type { CallHistory } from './call-history';
import { admitHistoryWith, type CounterQuery } from './commit-counters';
import { readWindowSums } from './counter-reader';
import { counterSql, windowSumsOf } from './history-ledger';

const provider = () => (dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite');
const STEP = 60;
const BASE = 1_795_000_000 - (1_795_000_000 % STEP);

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function commit(tenantId: string, histories: CallHistory[]) {
  const inputs = histories.map((history) => ({ tenantId, history }) as unknown as EvidenceInput);
  return db().$transaction(async (tx) => {
    const query: CounterQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
    return admitHistoryWith(query, provider(), inputs);
  });
}

async function direct(tenantId: string, scope: string, from: number) {
  const rows = await db().historyCounter.findMany({ where: { tenantId, series: 's', scope, bucket: { gte: BigInt(from) } } });
  return {
    count: rows.reduce((n, r) => n + r.count, 0),
    total: rows.reduce((n, r) => n + r.total, 0),
    lastAt: rows.reduce((n, r) => Math.max(n, Number(r.lastAt)), 0),
  };
}

async function stored(tenantId: string, scope: string, from: number) {
  const sql = counterSql(provider()).sums;
  const [row] = await db().$queryRawUnsafe<{ count: unknown; total: unknown; lastAt: unknown }[]>(
    sql.sql,
    ...sql.args([tenantId, 's', scope, from]),
  );
  return windowSumsOf(row);
}

describe('running totals of history counters', () => {
  it('give every window the sum of its rows, whatever order the increments came in, before and after pruning', async () => {
    const t = await createTestTenant();
    const next = random(17);
    const scopes = ['a', 'b'];
    let newest = 0;
    for (let round = 0; round < 60; round++) {
      const histories: CallHistory[] = [];
      for (let i = 0; i < 1 + Math.floor(next() * 4); i++) {
        // Mostly the newest bucket or the next, now and then one well behind (a late commit).
        const late = next() < 0.2;
        const bucketIndex = late ? Math.max(0, newest - 1 - Math.floor(next() * 5)) : newest + (next() < 0.4 ? 1 : 0);
        newest = Math.max(newest, bucketIndex);
        const scope = scopes[Math.floor(next() * scopes.length)] as string;
        const bucket = BASE + bucketIndex * STEP;
        const amount = Math.round((next() - 0.3) * 1000);
        // Half the calls check a window (the transaction then knows the newest row), half only count.
        const claims =
          next() < 0.5
            ? [{ series: 's', scope, from: BASE + Math.max(0, newest - 3) * STEP, measure: 'count' as const, max: 1e9, amount: 1 }]
            : [];
        histories.push({ increments: [{ series: 's', scope, bucket, total: amount, at: bucket * 1000 + i }], claims, reads: [] });
      }
      const admission = await commit(t.tenant.id, histories);
      expect(admission?.admitted.every(Boolean)).toBe(true);
    }
    const check = async (fromIndex: number) => {
      for (const scope of scopes)
        for (let index = fromIndex; index <= newest + 1; index++) {
          const from = BASE + index * STEP;
          expect(await stored(t.tenant.id, scope, from), `${scope} from bucket ${index}`).toEqual(await direct(t.tenant.id, scope, from));
        }
    };
    await check(0);
    const keys = scopes.map((scope) => ({ series: 's', scope, from: BASE + 4 * STEP }));
    expect(await readWindowSums(t.tenant.id, keys)).toEqual(await Promise.all(keys.map((k) => direct(t.tenant.id, k.scope, k.from))));

    // Pruned: rows before bucket 6 are gone; every window from there on still adds up.
    await db().historyCounter.deleteMany({ where: { tenantId: t.tenant.id, bucket: { lt: BigInt(BASE + 6 * STEP) } } });
    await check(6);
    // And counting goes on from there, into the newest bucket and a new one.
    await commit(t.tenant.id, [
      {
        increments: [{ series: 's', scope: 'a', bucket: BASE + newest * STEP, total: 5, at: (BASE + newest * STEP) * 1000 + 9 }],
        claims: [],
        reads: [],
      },
      {
        increments: [{ series: 's', scope: 'a', bucket: BASE + (newest + 2) * STEP, total: 7, at: (BASE + (newest + 2) * STEP) * 1000 }],
        claims: [],
        reads: [],
      },
    ]);
    newest += 2;
    await check(6);
  });

  it('hold a window at its limit when the claim and the counting are in one batch', async () => {
    const t = await createTestTenant();
    const bucket = BASE;
    const claim = { series: 's', scope: 'k', from: bucket, measure: 'count' as const, max: 3, amount: 1 };
    const call = (): CallHistory => ({ increments: [{ series: 's', scope: 'k', bucket, total: 0, at: 1 }], claims: [claim], reads: [] });
    const first = await commit(t.tenant.id, [call(), call()]);
    expect(first?.admitted).toEqual([true, true]);
    const second = await commit(t.tenant.id, [call(), call(), call()]);
    expect(second?.admitted).toEqual([true, false, false]);
    expect(await stored(t.tenant.id, 'k', bucket)).toMatchObject({ count: 3 });
    expect(second?.windows).toEqual([{ tenantId: t.tenant.id, series: 's', scope: 'k', from: bucket, count: 3, total: 0, lastAt: 1 }]);
  });
});
