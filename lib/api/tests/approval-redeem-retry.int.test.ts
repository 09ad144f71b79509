// An approval token redeemed by a call whose commit was refused because its policy history moved
// (the call is decided again from fresh counts): the retry still redeems the token once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { call, expectCodes } from '@/lib/testing/api-client';
import { publishContract } from '@/lib/testing/fixtures';
import { countingContract, createHistoryTenant, pre, publishPolicyDocument } from '@/lib/testing/history-fixtures';
import { HistoryLedger } from '@/lib/history/history-ledger';
import { decideApprovalHandler as decide, getApprovalHandler as getApproval } from '@/lib/api/handlers/approvals';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an approval token redeemed by a call decided again after a history conflict', () => {
  it('allows the call and uses the token once, instead of refusing it as already used', async () => {
    const t = await createHistoryTenant();
    const payout = countingContract('wallet.payout');
    await publishContract(t.tenant.id, {
      ...payout,
      annotations: { ...payout.annotations, approval_required: true, approver_roles: ['admin'] },
    });
    await publishPolicyDocument(t, {
      id: 'payout-limit',
      version: '1.0.0',
      limits: [{ id: 'hundred', tools: ['wallet.payout'], per: 'tenant', window: '1h', max_calls: 100 }],
    });
    const args = { account_id: 'acc-9', amount: 40 };
    const held = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-1' });
    expect(held.body.decision).toBe('require_approval');
    const id: string = held.body.approval.id;
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;
    expect(token).toMatch(/^tga_/);

    // Another call moved the limit's window between this call's decision and its commit: the
    // commit refuses the first attempt, and the call is decided again.
    const holds = vi.spyOn(HistoryLedger.prototype, 'holds').mockReturnValueOnce(false);
    const redeemed = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-1', extra: { approval_token: token } });
    expect(holds).toHaveBeenCalled();
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.errors).toEqual([]);
    expect(redeemed.body.decision).toBe('allow');
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).tokenUsedAt).not.toBeNull();

    // And the token stays single-use.
    const replay = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-1', extra: { approval_token: token } });
    expect(replay.body.decision).toBe('deny');
    expectCodes(replay.body.errors, ['AXAG_APPROVAL_INVALID']);
  });
});

describe('redeem_approval when another call redeems the same approval first', () => {
  // The approval is found unused, then redeemed by a simultaneous retry: before this call checks
  // the token it found, or after the check, before its commit.
  const whenRedeemed = {
    'before the token is checked': (where: Record<string, unknown>) => where.tokenUsedAt === null,
    'before the call commits': (where: Record<string, unknown>) => typeof where.id === 'string' && !('status' in where),
  };
  it.each(Object.keys(whenRedeemed) as (keyof typeof whenRedeemed)[])(
    'holds the call for a new approval, as a call arriving after the redemption is (redeemed %s)',
    async (when) => {
      const t = await createHistoryTenant();
      const payout = countingContract('wallet.payout');
      await publishContract(t.tenant.id, {
        ...payout,
        annotations: { ...payout.annotations, approval_required: true, approver_roles: ['admin'] },
      });
      const args = { account_id: 'acc-7', amount: 70 };
      const held = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-2' });
      const id: string = held.body.approval.id;
      expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);

      const approvals = db().approval;
      const findFirst = approvals.findFirst.bind(approvals);
      let redeemedMeanwhile = false;
      vi.spyOn(approvals, 'findFirst').mockImplementation((async (query: { where?: Record<string, unknown> }) => {
        const found = await findFirst(query as never);
        if (!redeemedMeanwhile && found && query.where && whenRedeemed[when](query.where)) {
          redeemedMeanwhile = true;
          await db().approval.update({ where: { id }, data: { tokenUsedAt: new Date() } });
        }
        return found;
      }) as never);
      const retry = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-2', extra: { redeem_approval: true } });
      expect(redeemedMeanwhile).toBe(true);
      vi.restoreAllMocks();
      const later = await pre(t, { tool: 'wallet.payout', user: 'u1', args, callId: 'payout-2', extra: { redeem_approval: true } });

      expect(later.body.decision).toBe('require_approval');
      expectCodes(later.body.errors, ['AXAG_APPROVAL_MISSING']);
      expect(retry.status).toBe(200);
      expect(retry.body.decision).toBe('require_approval');
      expectCodes(retry.body.errors, ['AXAG_APPROVAL_MISSING']);
      expect(retry.body.approval.id).not.toBe(id);
      expect(later.body.approval.id).toBe(retry.body.approval.id);
    },
  );
});
