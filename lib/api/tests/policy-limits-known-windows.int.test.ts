// A limit's window on the request path comes from what this process last knew of it
// (lib/history/window-cache.ts). Another instance counting the same window meanwhile must not
// let a call past the limit, and a refusal must give the database's numbers, not the known ones.
import { beforeEach, describe, expect, it } from 'vitest';
import { db, dbProvider } from '@/lib/db';
import type { EvidenceInput } from '@/lib/evidence/evidence-input';
import type { CallHistory } from '@/lib/history/call-history';
import { admitHistoryWith, type CounterQuery } from '@/lib/history/commit-counters';
import {
  counted,
  createHistoryTenant,
  decisionsRecorded,
  pre,
  publishPolicyDocument,
  type HistoryTenant,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;

beforeEach(async () => {
  t = await createHistoryTenant();
});

const transfer = (amount: number) => pre(t, { user: 'u1', args: { account_id: 'acc-1', amount } });

/** What another instance's commits do: add to the tenant's counter rows, unseen by this process. */
async function countElsewhere(calls: number, amount: number) {
  const rows = await db().historyCounter.findMany({ where: { tenantId: t.tenant.id } });
  expect(rows.length).toBeGreaterThan(0);
  const histories: CallHistory[] = [];
  for (let i = 0; i < calls; i++)
    histories.push({
      increments: rows.map((r) => ({
        series: r.series,
        scope: r.scope,
        bucket: Number(r.bucket),
        total: r.total === 0 ? 0 : amount,
        at: Date.now(),
      })),
      claims: [],
      reads: [],
    });
  await db().$transaction(async (tx) => {
    const query: CounterQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
    await admitHistoryWith(
      query,
      dbProvider() === 'postgresql' ? 'postgresql' : 'sqlite',
      histories.map((history) => ({ tenantId: t.tenant.id, history }) as unknown as EvidenceInput),
    );
  });
}

describe('limits decided on known windows', () => {
  it('a window counted by another instance meanwhile: the call is decided again on the database and refused with its numbers', async () => {
    await publishPolicyDocument(t, {
      id: 'limits',
      version: '1.0.0',
      limits: [{ id: 'five', tools: ['wallet.transfer'], per: 'tenant', window: '1h', max_calls: 5 }],
    });
    for (let i = 0; i < 2; i++) expect((await transfer(10)).body.decision).toBe('allow');
    await countElsewhere(3, 0);
    const refused = await transfer(10);
    expect(refused.status).toBe(200);
    expect(refused.body.decision).toBe('deny');
    expect(refused.body.errors[0].code).toBe('AXAG_RATE_LIMITED');
    expect(refused.body.errors[0].details).toMatchObject({ max: 5, used: 5, remaining: 0 });
    expect(await counted(t.tenant.id)).toMatchObject({ count: 5 });
    expect(await decisionsRecorded(t.tenant.id)).toEqual({ allow: 2, deny: 1 });
  });

  it('a budget freed by another instance (a negative amount): the refusal the known window suggests is checked on the database first', async () => {
    await publishPolicyDocument(t, {
      id: 'limits',
      version: '1.0.0',
      limits: [{ id: 'budget', tools: ['wallet.transfer'], per: 'tenant', window: '1h', max_sum: { path: 'amount', value: 1000 } }],
    });
    expect((await transfer(900)).body.decision).toBe('allow');
    await countElsewhere(1, -500);
    // Known: 900 used, so 200 more looks past the budget; the database says 400.
    const answer = await transfer(200);
    expect(answer.body.decision).toBe('allow');
    expect(await counted(t.tenant.id)).toMatchObject({ total: 600 });
    const refused = await transfer(500);
    expect(refused.body.decision).toBe('deny');
    expect(refused.body.errors[0]).toMatchObject({ code: 'AXAG_BUDGET_EXCEEDED', details: { used: 600, remaining: 400 } });
  });
});
