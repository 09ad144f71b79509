// Soft limits on real calls: past the maximum a call is held for a person; once approved and
// redeemed it is allowed and counted exactly once; held, denied and replayed calls never count.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { call } from '@/lib/testing/api-client';
import { getApprovalHandler as getApproval, decideApprovalHandler as decideApproval } from '@/lib/api/handlers/approvals';
import {
  counted,
  createHistoryTenant,
  decide,
  decisionsRecorded,
  pre,
  publishPolicyDocument,
  tally,
  type HistoryTenant,
  type ToolCall,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;

beforeEach(async () => {
  t = await createHistoryTenant();
  await publishPolicyDocument(t, {
    id: 'soft',
    version: '1.0.0',
    limits: [
      {
        id: 'two-then-ask',
        tools: ['wallet.transfer'],
        per: 'user',
        window: '1h',
        max_calls: 2,
        when_exceeded: 'require_approval',
        roles: ['approver'],
        reason: 'More than two transfers an hour need a person',
      },
      {
        id: 'soft-budget',
        tools: ['wallet.view'],
        per: 'user',
        window: '1d',
        max_sum: { path: 'amount', value: 100 },
        when_exceeded: 'require_approval',
        roles: ['approver'],
      },
    ],
  });
});

const transfer = (user: string, amount: number, extra?: ToolCall['extra']) =>
  pre(t, { user, args: { account_id: 'acc-1', amount }, callId: `transfer-${user}-${amount}`, extra });

/** Holds a call past the soft limit and approves it with the admin key; answers the approval token. */
async function heldAndApproved(request: () => ReturnType<typeof transfer>) {
  const held = await request();
  expect(held.body.decision).toBe('require_approval');
  const id: string = held.body.approval.id;
  const approved = await call(decideApproval, { key: t.adminKey, params: { id }, body: { decision: 'approve' } });
  expect(approved.status).toBe(200);
  const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;
  expect(token).toMatch(/^tga_/);
  return { id, token };
}

describe('a soft max_calls limit', () => {
  it('holds the call past it; approved and redeemed it is allowed and counted once; a replay is refused and not counted', async () => {
    expect((await transfer('u1', 1)).body.decision).toBe('allow');
    expect((await transfer('u1', 2)).body.decision).toBe('allow');
    const held = await transfer('u1', 3);
    expect(held.body.decision).toBe('require_approval');
    expect(held.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_APPROVAL_MISSING']);
    expect(held.body.policy).toMatchObject({ policy_id: 'soft', rule: 'two-then-ask', decision: 'require_approval' });
    expect(held.body.approval.status).toBe('pending');
    const approval = await db().approval.findUniqueOrThrow({ where: { id: held.body.approval.id } });
    expect(approval).toMatchObject({ status: 'pending', tool: 'wallet.transfer', approverRoles: 'approver' });
    expect(approval.reason).toContain('More than two transfers an hour need a person');
    // Asked again while pending: the same approval, still not counted.
    expect((await transfer('u1', 3)).body.approval.id).toBe(held.body.approval.id);
    expect((await counted(t.tenant.id)).count).toBe(2);

    const id: string = held.body.approval.id;
    expect((await call(decideApproval, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;
    const redeemed = await transfer('u1', 3, { approval_token: token });
    expect(redeemed.body).toMatchObject({ decision: 'allow', valid: true });
    expect((await counted(t.tenant.id)).count).toBe(3);

    const replay = await transfer('u1', 3, { approval_token: token });
    expect(replay.body.decision).toBe('deny');
    expect(replay.body.errors.map((e: { code: string }) => e.code)).toContain('AXAG_APPROVAL_INVALID');
    // Past the limit still: the next call is held again, and the counts have not moved.
    expect((await transfer('u1', 4)).body.decision).toBe('require_approval');
    expect((await counted(t.tenant.id)).count).toBe(3);
    expect(await decisionsRecorded(t.tenant.id)).toMatchObject({ allow: 3, require_approval: 3, deny: 1 });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('a call whose approval was denied is refused and never counted', async () => {
    await transfer('u1', 1);
    await transfer('u1', 2);
    const held = await transfer('u1', 3);
    const id: string = held.body.approval.id;
    expect((await call(decideApproval, { key: t.adminKey, params: { id }, body: { decision: 'deny', comment: 'no' } })).status).toBe(200);
    const after = await transfer('u1', 3);
    expect(after.body.decision).toBe('deny');
    expect(after.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_APPROVAL_DENIED']);
    expect((await counted(t.tenant.id)).count).toBe(2);
  });

  it('redeems through redeem_approval (as the MCP gateway does) and counts that call once', async () => {
    await transfer('u1', 1);
    await transfer('u1', 2);
    await heldAndApproved(() => transfer('u1', 3));
    const redeemed = await transfer('u1', 3, { redeem_approval: true });
    expect(redeemed.body.decision).toBe('allow');
    expect((await transfer('u1', 3, { redeem_approval: true })).body.decision).toBe('require_approval');
    expect((await counted(t.tenant.id)).count).toBe(3);
  });

  it('two concurrent redemptions of one approval: exactly one is allowed, and it is counted exactly once', async () => {
    await transfer('u1', 1);
    await transfer('u1', 2);
    const { token } = await heldAndApproved(() => transfer('u1', 3));
    const answers = await Promise.all(Array.from({ length: 4 }, () => transfer('u1', 3, { approval_token: token })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 1, deny: 3 });
    expect((await counted(t.tenant.id)).count).toBe(3);
    expect(await decisionsRecorded(t.tenant.id)).toMatchObject({ allow: 3, deny: 3 });
  });

  it('concurrent calls at the edge: exactly the maximum is allowed, the rest held, none of them counted', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => transfer('u1', 10 + i)));
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 2, require_approval: 6 });
    expect(await db().approval.count({ where: { tenantId: t.tenant.id, status: 'pending' } })).toBe(6);
    expect((await counted(t.tenant.id)).count).toBe(2);
  });
});

describe('a soft budget', () => {
  it('holds a call that would pass the budget, lets a smaller one through, and counts the approved amount once', async () => {
    const view = (amount: number, extra?: ToolCall['extra']) =>
      pre(t, { tool: 'wallet.view', user: 'u1', args: { account_id: 'acc-1', amount }, callId: `view-${amount}`, extra });
    expect((await view(70)).body.decision).toBe('allow');
    expect((await view(50)).body.decision).toBe('require_approval');
    expect((await view(30)).body.decision).toBe('allow');
    expect(await counted(t.tenant.id)).toMatchObject({ count: 2, total: 100 });
    const { token } = await heldAndApproved(() => view(50));
    expect((await view(50, { approval_token: token })).body.decision).toBe('allow');
    expect(await counted(t.tenant.id)).toMatchObject({ count: 3, total: 150 });
    expect((await decide(t, { tool: 'wallet.view', user: 'u2', args: { account_id: 'acc-1', amount: 100 } })).decision).toBe('allow');
  });
});
