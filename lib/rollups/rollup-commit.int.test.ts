// The rollups move with the evidence commit, on the raw path (SQLite writer or PostgreSQL store)
// and on the Prisma path (records with side effects): one batch of many records adds exactly its
// counts, and a batch the database refuses adds nothing, though its evidence rows went in first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { recordEvidence, type EvidenceInput } from '@/lib/evidence/record-evidence';
import { createTestTenant } from '@/lib/testing/fixtures';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';
import { rebuildRollups } from './rebuild-rollups';

let tenantId: string;

beforeEach(async () => {
  tenantId = (await createTestTenant()).tenant.id;
});

afterEach(() => allowInserts('ViolationRollup'));

/** Makes the database refuse this tenant's violation rollups: the last statement of a commit. */
const refuseRollups = () => refuseInserts('ViolationRollup', `NEW."tenantId" = '${tenantId}'`);

const input = (i: number, over: Partial<EvidenceInput> = {}): EvidenceInput => ({
  tenantId,
  kind: 'pre',
  requestId: `req-${i}`,
  traceId: `trace-${i}`,
  callId: `call-${i}`,
  tool: i % 2 ? 'orders.lookup' : 'payments.refund',
  apiKeyId: i % 3 ? 'key_a' : null,
  argsHash: '0'.repeat(64),
  decision: 'deny',
  valid: false,
  errors: [
    { code: 'AXAG_PATTERN_MISMATCH', type: 'validation_error', message: 'm', path: '$.a' },
    ...(i % 2 ? [{ code: 'AXAG_SCOPE_VIOLATION', type: 'security_error', message: 'm', path: '$' }] : []),
  ],
  warnings: [],
  durationMs: 1,
  shadowDiffers: i % 4 === 0,
  ...over,
});

const snapshot = async () => ({
  evidence: await db().evidenceRollup.findMany({ where: { tenantId }, orderBy: [{ hour: 'asc' }, { kind: 'asc' }, { decision: 'asc' }] }),
  violations: await db().violationRollup.findMany({
    where: { tenantId },
    orderBy: [{ span: 'asc' }, { dimension: 'asc' }, { bucket: 'asc' }, { code: 'asc' }, { decision: 'asc' }, { value: 'asc' }],
  }),
});
const sums = async () => ({
  records: (
    await db().evidenceRollup.aggregate({ where: { tenantId }, _sum: { records: true, shadowDiffers: true, policyRefusals: true } })
  )._sum,
  violationsByToolPerHour: (
    await db().violationRollup.aggregate({ where: { tenantId, span: 3600, dimension: 'tool' }, _sum: { count: true } })
  )._sum.count,
  violationsByKeyPerDay: (
    await db().violationRollup.aggregate({ where: { tenantId, span: 86400, dimension: 'key' }, _sum: { count: true } })
  )._sum.count,
});
const withSideEffect = async () => 'side effect';

describe('rollups written with the evidence', () => {
  it('count a concurrent batch on the raw path and the Prisma path, as the backfill would', async () => {
    // Twelve at once: the writer groups them into batches, one upsert per key and batch.
    await Promise.all(Array.from({ length: 12 }, (_, i) => recordEvidence(input(i))));
    // With side effects: through Prisma.
    await Promise.all(Array.from({ length: 4 }, (_, i) => recordEvidence(input(100 + i, { kind: 'post' }), withSideEffect)));
    await recordEvidence(input(200, { decision: 'allow', valid: true, errors: [] }));
    const violations = await db().violation.count({ where: { tenantId } });
    expect(violations).toBe(12 + 6 + 4 + 2);
    expect(await sums()).toEqual({
      records: { records: 17, shadowDiffers: 5, policyRefusals: 8 },
      violationsByToolPerHour: violations,
      violationsByKeyPerDay: violations,
    });
    const maintained = await snapshot();
    await rebuildRollups({ tenantId });
    expect(await snapshot()).toEqual(maintained);
  });

  it('do not move when the batch fails, on either path, and count again once writes go through', async () => {
    await recordEvidence(input(1));
    const before = await snapshot();
    await refuseRollups();
    await expect(Promise.all([recordEvidence(input(2)), recordEvidence(input(3))])).rejects.toMatchObject({ code: 'unavailable' });
    await expect(recordEvidence(input(4), withSideEffect)).rejects.toMatchObject({ code: 'unavailable' });
    expect(await snapshot()).toEqual(before);
    expect(await db().evidence.count({ where: { tenant: { tenantId } } })).toBe(1);
    expect(await db().violation.count({ where: { tenantId } })).toBe(2);
    await allowInserts('ViolationRollup');
    await recordEvidence(input(5));
    await recordEvidence(input(6), withSideEffect);
    expect((await sums()).records).toEqual({ records: 3, shadowDiffers: 0, policyRefusals: 2 });
    const maintained = await snapshot();
    await rebuildRollups({ tenantId });
    expect(await snapshot()).toEqual(maintained);
  });
});
