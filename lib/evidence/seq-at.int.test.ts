import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { seedEvidenceAt } from '../overview/seed-evidence-at';
import { seqsAt } from './seq-at';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 12, minute));

describe('seqsAt: a moment as a seq, by binary search over seq', () => {
  let tenantId: string;
  let emptyId: string;
  let seqs: number[];
  // Two records share each even minute (a batch commits with one createdAt).
  const minutes = [0, 2, 2, 4, 4, 6, 7, 9, 9, 9, 10, 30];

  beforeAll(async () => {
    tenantId = (await createTestTenant()).tenant.id;
    emptyId = (await createTestTenant()).tenant.id;
    seqs = (
      await seedEvidenceAt(
        tenantId,
        minutes.map((m) => ({ at: at(m) })),
      )
    ).map((r) => r.seq);
    // Another tenant's records in between must not move the answer.
    const otherId = (await createTestTenant()).tenant.id;
    await seedEvidenceAt(otherId, [{ at: at(1) }, { at: at(5) }, { at: at(50) }]);
  });

  it('finds the first record at or after each moment (0 before the first, last seq + 1 past the end)', async () => {
    const moments = [at(-5), at(0), at(1), at(2), at(3), at(9), at(10), at(11), at(30), at(31)];
    expect(seqs[0]).toBe(1);
    const expected = [0, 0, seqs[1], seqs[1], seqs[3], seqs[7], seqs[10], seqs[11], seqs[11], (seqs[11] as number) + 1];
    expect(await seqsAt(tenantId, moments)).toEqual(expected);
  });

  it('is exact to the millisecond', async () => {
    const justBefore = new Date(at(30).getTime() - 1);
    const justAfter = new Date(at(30).getTime() + 1);
    expect(await seqsAt(tenantId, [justBefore, at(30), justAfter])).toEqual([seqs[11], seqs[11], (seqs[11] as number) + 1]);
  });

  it('is null for a tenant with no evidence', async () => {
    expect(await seqsAt(emptyId, [at(0), at(100)])).toEqual([null, null]);
    expect(await seqsAt(tenantId, [])).toEqual([]);
  });

  it('steps over missing seqs (PostgreSQL hands out seqs whose commit rolled back)', async () => {
    const gappy = (await createTestTenant()).tenant.id;
    const rows = await seedEvidenceAt(
      gappy,
      [0, 1, 2, 3, 4, 5, 6, 7].map((m) => ({ at: at(m) })),
    );
    // Leave holes: delete the records of minutes 2, 3 and 4 (a verify would report them; the
    // search must still answer).
    await db().evidence.deleteMany({ where: { tenant: { tenantId: gappy }, seq: { in: rows.slice(2, 5).map((r) => r.seq) } } });
    const [two, three, five, six] = await seqsAt(gappy, [at(2), at(3), at(5), at(6)]);
    // Any seq s with everything before it older and everything from it newer will do.
    const records = await db().evidence.findMany({ where: { tenant: { tenantId: gappy } }, select: { seq: true, createdAt: true } });
    for (const [moment, seq] of [
      [at(2), two],
      [at(3), three],
      [at(5), five],
      [at(6), six],
    ] as const) {
      for (const r of records) expect(r.seq >= (seq as number)).toBe(r.createdAt >= moment);
    }
    // The smallest such seq: the first hole.
    expect(five).toBe(rows[2]?.seq);
  });
});
