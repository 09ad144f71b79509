// Evidence's createdAt never goes back along a tenant's chain, even when the clock does: time
// filters find a moment as a seq (./seq-at.ts), which holds only while seq and createdAt grow together.
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { countingContract } from '@/lib/testing/history-fixtures';
import { atTime } from '@/lib/seed/seed-clock';
import { verifyEvidenceChain } from './verify-evidence-chain';
import { seqsAt } from './seq-at';

describe('a clock that steps back', () => {
  it('stamps the records after it no earlier than the newest before it, plain and with side effects alike, and the chain verifies', async () => {
    const t = await createTestTenant();
    const held = countingContract('wallet.payout');
    await publishContract(t.tenant.id, countingContract('wallet.transfer'));
    await publishContract(t.tenant.id, {
      ...held,
      annotations: { ...held.annotations, approval_required: true, approver_roles: ['admin'] },
    });
    const pre = (tool: string, callId: string) =>
      call(validatePre, { key: t.agentKey, body: { tool, call_id: callId, arguments: { account_id: callId } } });
    for (const id of ['before-1', 'before-2']) expect((await pre('wallet.transfer', id)).body.decision).toBe('allow');
    const before = await db().evidence.findFirstOrThrow({ where: { tenant: { tenantId: t.tenant.id } }, orderBy: { seq: 'desc' } });

    // The system clock steps an hour back (an NTP correction, a restored VM).
    await atTime(Date.now() - 3_600_000, async () => {
      expect((await pre('wallet.transfer', 'after-1')).body.decision).toBe('allow');
      // A record with side effects (an approval request) commits through the other path.
      expect((await pre('wallet.payout', 'after-2')).body.decision).toBe('require_approval');
      expect((await pre('wallet.transfer', 'after-3')).body.decision).toBe('allow');
    });

    const records = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id } },
      orderBy: { seq: 'asc' },
      select: { seq: true, callId: true, createdAt: true },
    });
    expect(records.map((r) => r.callId)).toEqual(['before-1', 'before-2', 'after-1', 'after-2', 'after-3']);
    for (let i = 1; i < records.length; i++)
      expect((records[i] as (typeof records)[0]).createdAt.getTime()).toBeGreaterThanOrEqual(
        (records[i - 1] as (typeof records)[0]).createdAt.getTime(),
      );
    // Half an hour before the newest record before the step: every record is at or after it.
    expect(await seqsAt(t.tenant.id, [new Date(before.createdAt.getTime() - 1_800_000)])).toEqual([0]);
    expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: 5 });
  });
});
