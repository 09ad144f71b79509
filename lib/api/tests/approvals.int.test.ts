import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { createApiKey } from '@/lib/auth/api-keys';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { getApprovalHandler as getApproval, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { createConfirmationHandler as confirm } from '@/lib/api/handlers/confirmations';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) {
    await publishContract(t.tenant.id, contract);
    await publishContract(other.tenant.id, contract);
  }
});

const refundArgs = { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' };
const refundContext = { tenant_id: 'acme', user_id: 'agent-user', roles: ['support'], state: { payment_status: 'captured' } };
const refund = (callId: string, extra: Record<string, unknown> = {}, args: Record<string, unknown> = refundArgs) =>
  call(validatePre, {
    key: t.agentKey,
    body: { tool: 'payments.refund', call_id: callId, arguments: args, context: refundContext, ...extra },
  });

describe('approval flow', () => {
  it('goes require_approval -> approve -> single-use token -> allow, and refuses a replay', async () => {
    const first = await refund('refund-1');
    expect(first.status).toBe(200);
    expect(first.body.decision).toBe('require_approval');
    expectCodes(first.body.errors, ['AXAG_APPROVAL_MISSING']);
    expect(first.body.errors[0].type).toBe('safety_error');
    const approvalId: string = first.body.approval.id;
    expect(first.body.approval).toMatchObject({ status: 'pending', poll_url: `/api/v1/approvals/${approvalId}` });

    // The same call again while pending reuses the pending approval.
    const again = await refund('refund-1');
    expect(again.body.approval.id).toBe(approvalId);

    const pending = await call(getApproval, { key: t.agentKey, params: { id: approvalId } });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: 'pending', tool: 'payments.refund', version: '2.1.0' });
    expect(pending.body.approval_token).toBeUndefined();

    // An agent key cannot approve its own call; an admin key can.
    const byAgent = await call(decide, { key: t.agentKey, params: { id: approvalId }, body: { decision: 'approve' } });
    expect(byAgent.status).toBe(403);
    const approved = await call(decide, { key: t.adminKey, params: { id: approvalId }, body: { decision: 'approve', comment: 'ok' } });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('approved');
    const twice = await call(decide, { key: t.adminKey, params: { id: approvalId }, body: { decision: 'deny' } });
    expect(twice.status).toBe(409);

    const polled = await call(getApproval, { key: t.agentKey, params: { id: approvalId } });
    const token: string = polled.body.approval_token;
    expect(token).toMatch(/^tga_/);

    // A token for this call does not unlock a different one.
    const otherArgs = await refund('refund-1b', { approval_token: token }, { ...refundArgs, amount_cents: 999 });
    expect(otherArgs.body.decision).toBe('deny');
    expectCodes(otherArgs.body.errors, ['AXAG_APPROVAL_INVALID']);
    expect(otherArgs.body.errors[0].details.reason).toBe('binding_mismatch');

    const allowed = await refund('refund-1', { approval_token: token });
    expect(allowed.body).toMatchObject({ valid: true, decision: 'allow' });

    const replay = await refund('refund-1', { approval_token: token });
    expect(replay.body.decision).toBe('deny');
    expectCodes(replay.body.errors, ['AXAG_APPROVAL_INVALID']);
    expect(replay.body.errors[0].details.reason).toBe('used');

    const after = await call(getApproval, { key: t.agentKey, params: { id: approvalId } });
    expect(after.body.token_used).toBe(true);
    expect(after.body.approval_token).toBeUndefined();
    // The decision itself is evidence in the same trace.
    const kinds = (
      await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id }, traceId: first.body.trace_id }, orderBy: { seq: 'asc' } })
    ).map((e) => `${e.kind}:${e.decision}`);
    expect(kinds).toContain('approval_decision:approved');
  });

  it('reports a denial as AXAG_APPROVAL_DENIED with the comment', async () => {
    const first = await refund('refund-2', {}, { ...refundArgs, amount_cents: 222 });
    const id: string = first.body.approval.id;
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'deny', comment: 'not this one' } })).status).toBe(200);
    const state = await call(getApproval, { key: t.agentKey, params: { id } });
    expect(state.body).toMatchObject({ status: 'denied', comment: 'not this one' });
    expect(state.body.approval_token).toBeUndefined();
    // A forged token naming the denied approval does not verify.
    const forged = await refund('refund-2', { approval_token: `tga_${id}_${'A'.repeat(43)}` }, { ...refundArgs, amount_cents: 222 });
    expectCodes(forged.body.errors, ['AXAG_APPROVAL_INVALID']);
  });

  it('expires an undecided approval as expired, never approved', async () => {
    const first = await refund('refund-3', {}, { ...refundArgs, amount_cents: 333 });
    const id: string = first.body.approval.id;
    await db().approval.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const state = await call(getApproval, { key: t.agentKey, params: { id } });
    expect(state.body.status).toBe('expired');
    const late = await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } });
    expect(late.status).toBe(409);
  });

  it("gives an approval's token to the key that asked for it alone; another key's identical call waits for its own", async () => {
    const { key: otherAgent } = await createApiKey({ tenantId: t.tenant.id, name: 'second agent', scopes: ['validate'] });
    const args = { ...refundArgs, amount_cents: 555 };
    const mine = await refund('refund-5', {}, args);
    const id: string = mine.body.approval.id;
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);

    // The same call through another key of the tenant: held for an approval of its own, not handed this one.
    const theirs = await call(validatePre, {
      key: otherAgent,
      body: { tool: 'payments.refund', call_id: 'refund-5b', arguments: args, context: refundContext },
    });
    expect(theirs.body.decision).toBe('require_approval');
    expect(theirs.body.approval).toMatchObject({ status: 'pending' });
    expect(theirs.body.approval.id).not.toBe(id);

    // It may read the approval (same tenant), but not its token; with the token it still cannot run the call.
    const seen = await call(getApproval, { key: otherAgent, params: { id } });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'approved', token_used: false });
    expect(seen.body).not.toHaveProperty('approval_token');
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;
    expect(token).toEqual(expect.any(String));
    const stolen = await call(validatePre, {
      key: otherAgent,
      body: { tool: 'payments.refund', call_id: 'refund-5c', arguments: args, context: refundContext, approval_token: token },
    });
    expect(stolen.body.decision).not.toBe('allow');
    expect(stolen.body.errors).toContainEqual(
      expect.objectContaining({ code: 'AXAG_APPROVAL_INVALID', details: expect.objectContaining({ reason: 'other_key' }) }),
    );
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).tokenUsedAt).toBeNull();

    // The asking key runs it, once.
    expect((await refund('refund-5', { approval_token: token }, args)).body.decision).toBe('allow');
  });

  it('keeps approvals inside their tenant', async () => {
    const first = await refund('refund-4', {}, { ...refundArgs, amount_cents: 444 });
    const id: string = first.body.approval.id;
    expect((await call(getApproval, { key: other.agentKey, params: { id } })).status).toBe(404);
    expect((await call(decide, { key: other.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(404);
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
  });
});

describe('confirmation flow', () => {
  const args = { tenant_id: 'acme', user_id: 'u1', currency: 'EUR', items: [{ sku: 'ABC-1234', quantity: 2 }] };
  const context = { tenant_id: 'acme', user_id: 'u1', roles: ['shopper'] };

  it('requires a confirmation token bound to the call, and refuses a replay', async () => {
    const missing = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'cf-1', arguments: args, context },
    });
    expect(missing.body.decision).toBe('deny');
    expectCodes(missing.body.errors, ['AXAG_CONFIRMATION_MISSING']);

    const created = await call(confirm, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', arguments: args, context: { user_id: 'u1' } },
    });
    expect(created.status).toBe(201);
    const token: string = created.body.confirmation_token;
    expect(token).toMatch(/^tgc_/);

    const wrongUser = await call(validatePre, {
      key: t.agentKey,
      body: {
        tool: 'cart.begin_checkout',
        call_id: 'cf-1',
        arguments: { ...args, user_id: 'u2' },
        context: { ...context, user_id: 'u2' },
        confirmation_token: token,
      },
    });
    expectCodes(wrongUser.body.errors, ['AXAG_CONFIRMATION_INVALID']);

    const otherTenant = await call(validatePre, {
      key: other.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'cf-1', arguments: args, context, confirmation_token: token },
    });
    expectCodes(otherTenant.body.errors, ['AXAG_CONFIRMATION_INVALID']);

    const ok = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'cf-1', arguments: args, context, confirmation_token: token },
    });
    expect(ok.body).toMatchObject({ decision: 'allow', valid: true });
    const replay = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', call_id: 'cf-1', arguments: args, context, confirmation_token: token },
    });
    expectCodes(replay.body.errors, ['AXAG_CONFIRMATION_INVALID']);
  });

  it('lets exactly one of two concurrent calls redeem the same token', async () => {
    const a2 = { ...args, items: [{ sku: 'ABC-1234', quantity: 3 }] };
    const created = await call(confirm, {
      key: t.agentKey,
      body: { tool: 'cart.begin_checkout', arguments: a2, context: { user_id: 'u1' } },
    });
    const body = (id: string) => ({
      tool: 'cart.begin_checkout',
      call_id: id,
      arguments: a2,
      context,
      confirmation_token: created.body.confirmation_token,
    });
    const results = await Promise.all([
      call(validatePre, { key: t.agentKey, body: body('race-1') }),
      call(validatePre, { key: t.agentKey, body: body('race-2') }),
    ]);
    expect(results.map((r) => r.body.decision).sort()).toEqual(['allow', 'deny']);
  });
});
