// An end user id or call id with a NUL or a lone surrogate (JSON carries both) is stored as
// evidence stores it, with U+FFFD in their place, and everything that binds a call to its user
// sees that one value: the approval is queued (PostgreSQL text cannot hold a NUL), approved and
// redeemed, and a confirmation is created and redeemed, on both databases.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { getApprovalHandler as getApproval, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { createConfirmationHandler as confirm } from '@/lib/api/handlers/confirmations';

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

const ILL_FORMED = [
  { name: 'a NUL', userId: 'u\u0000x', callId: 'call-\u0000' },
  { name: 'a lone surrogate', userId: 'u\ud800x', callId: 'call-\udc00' },
];

let amount = 700;

describe.each(ILL_FORMED)('an end user id and call id with $name', ({ userId, callId }) => {
  const refund = (id: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'payments.refund',
        call_id: id,
        arguments: args,
        context: { tenant_id: 'acme', user_id: userId, roles: ['support'], state: { payment_status: 'captured' } },
        ...extra,
      },
    });
  const refundArgs = () => ({ tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: ++amount, reason: 'duplicate' });

  async function heldAndApproved(id: string, args: Record<string, unknown>) {
    const held = await refund(id, args);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.decision).toBe('require_approval');
    const approvalId: string = held.body.approval.id;
    const row = await db().approval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(row.userId).toBe(userId.replace(/[\u0000\ud800-\udfff]/g, '\ufffd'));
    expect(row.callId).toBe(id.replace(/[\u0000\ud800-\udfff]/g, '\ufffd'));
    // The same call again finds the same approval rather than queueing a twin.
    expect((await refund(id, args)).body.approval?.id).toBe(approvalId);
    const approved = await call(decide, { key: t.adminKey, params: { id: approvalId }, body: { decision: 'approve' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.status).toBe('approved');
    return approvalId;
  }

  it('holds the call, and its approval token, once approved, lets exactly that call run', async () => {
    const args = refundArgs();
    const approvalId = await heldAndApproved(callId, args);
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id: approvalId } })).body.approval_token;
    expect(token).toMatch(/^tga_/);
    const allowed = await refund(callId, args, { approval_token: token });
    expect(allowed.status).toBe(200);
    expect(allowed.body, JSON.stringify(allowed.body)).toMatchObject({ valid: true, decision: 'allow' });
    const replay = await refund(callId, args, { approval_token: token });
    expectCodes(replay.body.errors, ['AXAG_APPROVAL_INVALID']);
    expect(replay.body.errors[0].details.reason).toBe('used');
  });

  it('redeems the approved approval with redeem_approval', async () => {
    const args = refundArgs();
    const id = `${callId}-redeem`;
    await heldAndApproved(id, args);
    const allowed = await refund(id, args, { redeem_approval: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body, JSON.stringify(allowed.body)).toMatchObject({ valid: true, decision: 'allow' });
  });

  it('creates a confirmation for the user and redeems it once', async () => {
    const args = { tenant_id: 'acme', user_id: userId, currency: 'EUR', items: [{ sku: 'ABC-1234', quantity: 2 }] };
    const context = { tenant_id: 'acme', user_id: userId, roles: ['shopper'] };
    const created = await call(confirm, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', arguments: args, context: { user_id: userId } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token: string = created.body.confirmation_token;
    const checkout = () =>
      call(validatePre, {
        key: t.agentKey,
        body: { tool: 'cart.begin_checkout', call_id: `${callId}-checkout`, arguments: args, context, confirmation_token: token },
      });
    const allowed = await checkout();
    expect(allowed.status).toBe(200);
    expect(allowed.body, JSON.stringify(allowed.body)).toMatchObject({ valid: true, decision: 'allow' });
    const replay = await checkout();
    expectCodes(replay.body.errors, ['AXAG_CONFIRMATION_INVALID']);
  });
});
