import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { pruneHistoryCounters } from './prune-history-counters';

describe('pruneHistoryCounters', () => {
  it('removes counter rows older than 32 days in batches and keeps the rest', async () => {
    const t = await createTestTenant();
    const now = new Date('2026-11-26T12:00:00Z');
    const day = 86_400;
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const buckets = [nowSeconds - 40 * day, nowSeconds - 33 * day, nowSeconds - 32 * day - 60, nowSeconds - 31 * day, nowSeconds - 60];
    await db().historyCounter.createMany({
      data: buckets.map((bucket, i) => ({
        tenantId: t.tenant.id,
        series: 's',
        scope: `scope-${i}`,
        bucket: BigInt(bucket),
        count: 1,
        total: 0,
        lastAt: BigInt(bucket * 1000),
      })),
    });
    expect(await pruneHistoryCounters({ now, batchSize: 2 })).toBe(3);
    const left = await db().historyCounter.findMany({ where: { tenantId: t.tenant.id }, orderBy: { bucket: 'asc' } });
    expect(left.map((row) => Number(row.bucket))).toEqual(buckets.slice(3));
    expect(await pruneHistoryCounters({ now })).toBe(0);
  });
});
