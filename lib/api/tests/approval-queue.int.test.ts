import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import { findRecentDenial } from '@/lib/approvals/find-recent-denial';
import { llmMessage } from '@toolgate/sdk/core';
import { call, expectCodes } from '@/lib/testing/api-client';
import {
  admin,
  approver1,
  approver2,
  asSession,
  context,
  decisions,
  other,
  poll,
  requestRefund,
  retry,
  setUpApprovalQueue,
  t,
  viewer,
} from './approval-queue-setup';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listApprovalsHandler as listApprovals, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { hashHex } from '@/lib/evidence/stored-hashes';

setUpApprovalQueue();

describe('approve with edited arguments', () => {
  it('refuses edits that break the contract with 422 and the AXAG issues, and keeps the approval pending', async () => {
    const { id, args } = await requestRefund(1001);
    const tooMuch = await asSession(approver1, id, { decision: 'approve', arguments: { ...args, amount_cents: 2_000_000 } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.code).toBe('arguments_invalid');
    expectCodes(tooMuch.body.error.details.errors, ['AXAG_OUT_OF_RANGE']);
    const otherTenant = await asSession(approver1, id, { decision: 'approve', arguments: { ...args, tenant_id: 'globex' } });
    expect(otherTenant.status).toBe(422);
    expectCodes(otherTenant.body.error.details.errors, ['AXAG_TENANT_BOUNDARY']);
    // The redaction marker where the agent sent no value would become a literal argument.
    const noCard = { tenant_id: args.tenant_id, payment_id: args.payment_id, reason: args.reason };
    const { id: id2 } = await requestRefund(1002);
    await db().approval.update({ where: { id: id2 }, data: { arguments: JSON.stringify({ ...noCard, amount_cents: 1002 }) } });
    const marker = await asSession(approver1, id2, {
      decision: 'approve',
      arguments: { ...noCard, amount_cents: 1002, card: { holder_name: '[REDACTED]' } },
    });
    expect(marker.status).toBe(422);
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    expect(await db().approvalVote.count({ where: { approvalId: id } })).toBe(0);
  });

  it('binds the token to the edited arguments, which the agent receives; the original arguments no longer pass', async () => {
    const { id, args, callId, traceId } = await requestRefund(1003);
    // The queue shows sensitive fields redacted; the approver edits what they see.
    const queue = await call(listApprovals, { headers: { cookie: approver1.cookie }, path: '/api/v1/approvals?status=pending&limit=100' });
    const shown = queue.body.approvals.find((a: { id: string }) => a.id === id);
    expect(shown.arguments.card).toEqual({ last4: '[REDACTED]', holder_name: '[REDACTED]' });
    const approved = await asSession(approver1, id, {
      decision: 'approve',
      comment: 'half is enough',
      arguments: { ...shown.arguments, amount_cents: 500 },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', outcome: 'approved', edited: true });

    // An unchanged redaction marker kept the agent's original value.
    const edited = { ...args, amount_cents: 500 };
    const state = await poll(id);
    expect(state.body.arguments).toEqual(edited);
    const token: string = state.body.approval_token;
    expect(token).toMatch(/^tga_/);

    const row = await db().approval.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ argsHash: hashCanonical(edited), originalArgsHash: hashCanonical(args) });
    const evidence = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: t.tenant.id }, traceId, kind: 'approval_decision' },
    });
    expect(evidence.decision).toBe('approved');
    expect(hashHex(evidence.argsHash)).toBe(hashCanonical(args));
    // Hashes in the chained policy JSON; the edited arguments, redacted, only as a raw payload.
    expect(JSON.parse(evidence.policy ?? '{}').transformed).toEqual({
      args_hash: hashCanonical(edited),
      original_args_hash: hashCanonical(args),
    });
    expect(evidence.arguments).toBeNull();
    expect(JSON.parse(evidence.payload ?? '{}')).toEqual({
      transformed_arguments: { ...edited, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } },
    });

    const original = await retry(callId, args, token);
    expect(original.body.decision).toBe('deny');
    expectCodes(original.body.errors, ['AXAG_APPROVAL_INVALID']);
    expect(original.body.errors[0].details.reason).toBe('binding_mismatch');
    const allowed = await retry(callId, edited, token);
    expect(allowed.body).toMatchObject({ decision: 'allow', valid: true });
  });

  it('treats an edit that changes nothing as a plain approve', async () => {
    const { id, args, callId } = await requestRefund(1004);
    const res = await asSession(approver1, id, {
      decision: 'approve',
      arguments: { ...args, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } },
    });
    expect(res.body).toMatchObject({ status: 'approved', edited: false });
    const state = await poll(id);
    expect(state.body.arguments).toBeUndefined();
    expect((await retry(callId, args, state.body.approval_token)).body.decision).toBe('allow');
  });
});

describe('who may approve', () => {
  it('refuses the requesting key itself (403 self_approval), but lets it deny its own call', async () => {
    const { id } = await requestRefund(2001, { key: t.adminKey });
    const self = await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } });
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('self_approval');
    const withdraw = await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'deny', comment: 'never mind' } });
    expect(withdraw.body.status).toBe('denied');
  });

  it('refuses the end user the call acts for, and the person who created the requesting key', async () => {
    const forApprover1 = await requestRefund(2002, { userId: approver1.userId });
    const asUser = await asSession(approver1, forApprover1.id, { decision: 'approve' });
    expect(asUser.status).toBe(403);
    expect(asUser.body.error.code).toBe('self_approval');

    // An admin's keys: only an admin's key holds the admin scope (lib/auth/api-keys.ts).
    const agentOfAdmin = await createApiKey({
      tenantId: t.tenant.id,
      name: 'agent of admin',
      scopes: ['validate'],
      createdById: admin.userId,
    });
    const adminKeyOfAdmin = await createApiKey({
      tenantId: t.tenant.id,
      name: 'admin key of admin',
      scopes: ['validate', 'admin'],
      createdById: admin.userId,
    });
    const byTheirAgent = await requestRefund(2003, { key: agentOfAdmin.key });
    const creator = await asSession(admin, byTheirAgent.id, { decision: 'approve' });
    expect(creator.status).toBe(403);
    expect(creator.body.error.code).toBe('self_approval');
    const creatorsOtherKey = await call(decide, {
      key: adminKeyOfAdmin.key,
      params: { id: byTheirAgent.id },
      body: { decision: 'approve' },
    });
    expect(creatorsOtherKey.status).toBe(403);
    expect(creatorsOtherKey.body.error.code).toBe('self_approval');

    // Someone else approves both.
    expect((await asSession(approver2, forApprover1.id, { decision: 'approve' })).body.status).toBe('approved');
    expect((await asSession(approver1, byTheirAgent.id, { decision: 'approve' })).body.status).toBe('approved');
  });

  it('lets viewers read the queue but not decide, and keeps each tenant to its own approvals', async () => {
    const { id } = await requestRefund(2004);
    const list = await call(listApprovals, { headers: { cookie: viewer.cookie } });
    expect(list.status).toBe(200);
    expect(list.body.approvals.map((a: { id: string }) => a.id)).toContain(id);
    expect((await asSession(viewer, id, { decision: 'approve' })).status).toBe(403);
    expect((await call(listApprovals, { key: t.agentKey })).status).toBe(403);
    const foreign = await call(listApprovals, { key: other.adminKey, path: '/api/v1/approvals?status=all' });
    expect(foreign.body.approvals.map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await call(decide, { key: other.adminKey, params: { id }, body: { decision: 'deny' } })).status).toBe(404);
  });
});

describe('N distinct approvers', () => {
  it('approves only when N distinct people approved; the same person twice is a conflict', async () => {
    const { id, args, callId, traceId } = await requestRefund(3001);
    await db().approval.update({ where: { id }, data: { approversRequired: 2 } });
    const first = await asSession(admin, id, { decision: 'approve', comment: 'ok by me' });
    expect(first.body).toMatchObject({ status: 'pending', outcome: 'pending', approvals: 1, approvers_required: 2 });
    expect((await poll(id)).body.approval_token).toBeUndefined();

    const again = await asSession(admin, id, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('already_voted');
    // A key the admin created votes as the admin: people are counted, not keys.
    const theirKey = await createApiKey({
      tenantId: t.tenant.id,
      name: 'admin key',
      scopes: ['validate', 'admin'],
      createdById: admin.userId,
    });
    expect((await call(decide, { key: theirKey.key, params: { id }, body: { decision: 'approve' } })).status).toBe(409);

    const second = await asSession(approver2, id, { decision: 'approve' });
    expect(second.body).toMatchObject({ status: 'approved', approvals: 2 });
    const token = (await poll(id)).body.approval_token;
    expect((await retry(callId, args, token)).body.decision).toBe('allow');
    expect(await decisions(traceId)).toEqual(['vote', 'approved']);
  });

  it('denies at the first deny, whatever the approvals so far', async () => {
    const { id, traceId } = await requestRefund(3002);
    await db().approval.update({ where: { id }, data: { approversRequired: 3 } });
    await asSession(approver1, id, { decision: 'approve' });
    const denied = await asSession(approver2, id, { decision: 'deny', comment: 'customer already refunded' });
    expect(denied.body).toMatchObject({ status: 'denied', outcome: 'denied', comment: 'customer already refunded' });
    expect((await poll(id)).body).toMatchObject({ status: 'denied', comment: 'customer already refunded' });
    expect(await decisions(traceId)).toEqual(['vote', 'denied']);
  });
});

describe('escalation', () => {
  it('moves the approval to the admins queue, clears earlier votes, and records it', async () => {
    const { id, traceId } = await requestRefund(4001);
    await db().approval.update({ where: { id }, data: { approversRequired: 2 } });
    await asSession(approver1, id, { decision: 'approve' });
    const escalated = await asSession(approver2, id, { decision: 'escalate', comment: 'large customer, needs an admin' });
    expect(escalated.body).toMatchObject({ status: 'pending', escalation_level: 1, approver_roles: ['admin'], approvals: 0 });
    expect(await decisions(traceId)).toEqual(['vote', 'escalated']);

    const approverNow = await asSession(approver1, id, { decision: 'approve' });
    expect(approverNow.status).toBe(403);
    expect(approverNow.body.error.details.code).toBe('AXAG_ROLE_INSUFFICIENT');
    const higher = await asSession(admin, id, { decision: 'escalate' });
    expect(higher.status).toBe(409);
    expect(higher.body.error.details.reason).toBe('highest_role');

    expect((await asSession(admin, id, { decision: 'approve' })).body).toMatchObject({ status: 'pending', approvals: 1 });
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).body).toMatchObject({
      status: 'approved',
      approvals: 2,
    });
  });
});

describe('a denial reaches the agent', () => {
  it('as AXAG_APPROVAL_DENIED with the comment, in llm_message too', async () => {
    const { id, args } = await requestRefund(8001);
    // A NUL in the comment is refused on both databases, the approval still pending.
    const nul = await asSession(approver1, id, { decision: 'deny', comment: 'no\u0000way' });
    expect([nul.status, nul.body.error.code]).toEqual([400, 'bad_request']);
    expect(JSON.stringify(nul.body.error)).toContain('comment cannot contain NUL');
    await asSession(approver1, id, { decision: 'deny', comment: 'Refunds above 500 need the customer on the phone' });
    const binding = {
      tenantId: t.tenant.id,
      tool: 'payments.refund',
      contractVersion: '2.1.0',
      argsHash: hashCanonical(args),
      userId: 'end-user-1',
    };
    const issue = await findRecentDenial({ binding, withinSeconds: 3600 });
    expect(issue?.code).toBe('AXAG_APPROVAL_DENIED');
    expect(llmMessage({ tool: 'payments.refund', errors: issue ? [issue] : [], warnings: [] })).toContain(
      'Refunds above 500 need the customer on the phone',
    );
    // A different call, or one only expired, is not a denial.
    expect(
      await findRecentDenial({ binding: { ...binding, argsHash: hashCanonical({ ...args, amount_cents: 1 }) }, withinSeconds: 3600 }),
    ).toBeNull();
  });

  it('when the agent simply calls again without a token: denied with the comment, and nothing queued again', async () => {
    const { id, args, callId } = await requestRefund(8002);
    await asSession(approver1, id, { decision: 'deny', comment: 'Ask the customer for the original receipt first' });
    const again = await call(validatePre, {
      key: t.agentKey,
      body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context() },
    });
    expect(again.body.decision).toBe('deny');
    expect(again.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_APPROVAL_DENIED']);
    expect(again.body.llm_message).toContain('Ask the customer for the original receipt first');
    expect(again.body.approval).toBeUndefined();
    expect(
      await db().approval.count({ where: { tenantId: t.tenant.id, status: 'pending', arguments: { contains: '"amount_cents":8002' } } }),
    ).toBe(0);
  });
});
