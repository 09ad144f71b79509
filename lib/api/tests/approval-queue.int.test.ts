import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { POST as validatePre } from '@/app/api/v1/validate/pre/route';
import { GET as listApprovals } from '@/app/api/v1/approvals/route';
import { GET as getApproval } from '@/app/api/v1/approvals/[id]/route';
import { POST as decide } from '@/app/api/v1/approvals/[id]/decision/route';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { expireOverdueApprovals } from '@/lib/approvals/expire-approval';
import { findRecentDenial } from '@/lib/approvals/find-recent-denial';
import { waitForApprovalChange } from '@/lib/approvals/wait-for-approval';
import { waitingOnApproval } from '@/lib/approvals/approval-events';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { llmMessage } from '@/lib/validation/llm-message';
import { call, expectCodes } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';

type Member = { userId: string; cookie: string };
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let approver1: Member;
let approver2: Member;
let admin: Member;
let viewer: Member;

async function member(tenantId: string, role: 'viewer' | 'approver' | 'admin', email: string): Promise<Member> {
  const { user } = await addMember({ tenantId, email, password: 'a-long-password', role });
  const response = await authPost(
    new Request('http://localhost:3000/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' }, body: JSON.stringify({ email, password: 'a-long-password' }) }),
  );
  expect(response.status).toBe(200);
  return { userId: user.id, cookie: response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  other = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) {
    await publishContract(t.tenant.id, contract);
    await publishContract(other.tenant.id, contract);
  }
  approver1 = await member(t.tenant.id, 'approver', `a1-${t.tenant.slug}@test.local`);
  approver2 = await member(t.tenant.id, 'approver', `a2-${t.tenant.slug}@test.local`);
  admin = await member(t.tenant.id, 'admin', `admin-${t.tenant.slug}@test.local`);
  viewer = await member(t.tenant.id, 'viewer', `viewer-${t.tenant.slug}@test.local`);
});

const baseArgs = { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', reason: 'duplicate', card: { last4: '4242', holder_name: 'Ada Lovelace' } };
const context = (userId = 'end-user-1') => ({ tenant_id: 'acme', user_id: userId, roles: ['support'], state: { payment_status: 'captured' } });
let callCounter = 0;

/** A refund that needs approval; distinct amounts keep approvals apart. */
async function requestRefund(amount: number, options: { key?: string; userId?: string } = {}) {
  const args = { ...baseArgs, amount_cents: amount };
  const callId = `q-${++callCounter}`;
  const res = await call(validatePre, { key: options.key ?? t.agentKey, body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context(options.userId) } });
  expect(res.body.decision).toBe('require_approval');
  return { id: res.body.approval.id as string, args, callId, traceId: res.body.trace_id as string };
}

const retry = (callId: string, args: Record<string, unknown>, token: string, userId?: string) =>
  call(validatePre, { key: t.agentKey, body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context(userId), approval_token: token } });

const asSession = (m: Member, id: string, body: Record<string, unknown>) => call(decide, { headers: { cookie: m.cookie }, params: { id }, body });
const poll = (id: string, wait?: number) => call(getApproval, { key: t.agentKey, params: { id }, path: `/api/v1/approvals/${id}${wait === undefined ? '' : `?wait=${wait}`}` });
const decisions = async (traceId: string) =>
  (await db().evidence.findMany({ where: { tenantId: t.tenant.id, traceId, kind: 'approval_decision' }, orderBy: { seq: 'asc' } })).map((e) => e.decision);

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
    const marker = await asSession(approver1, id2, { decision: 'approve', arguments: { ...noCard, amount_cents: 1002, card: { holder_name: '[REDACTED]' } } });
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
    const approved = await asSession(approver1, id, { decision: 'approve', comment: 'half is enough', arguments: { ...shown.arguments, amount_cents: 500 } });
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
    const evidence = await db().evidence.findFirstOrThrow({ where: { tenantId: t.tenant.id, traceId, kind: 'approval_decision' } });
    expect(evidence.decision).toBe('approved');
    expect(evidence.argsHash).toBe(hashCanonical(args));
    // Hashes in the chained policy JSON; the edited arguments, redacted, only as a raw payload.
    expect(JSON.parse(evidence.policy ?? '{}').transformed).toEqual({ args_hash: hashCanonical(edited), original_args_hash: hashCanonical(args) });
    expect(evidence.arguments).toBeNull();
    expect(JSON.parse(evidence.payload ?? '{}')).toEqual({ transformed_arguments: { ...edited, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } } });

    const original = await retry(callId, args, token);
    expect(original.body.decision).toBe('deny');
    expectCodes(original.body.errors, ['AXAG_APPROVAL_INVALID']);
    expect(original.body.errors[0].details.reason).toBe('binding_mismatch');
    const allowed = await retry(callId, edited, token);
    expect(allowed.body).toMatchObject({ decision: 'allow', valid: true });
  });

  it('treats an edit that changes nothing as a plain approve', async () => {
    const { id, args, callId } = await requestRefund(1004);
    const res = await asSession(approver1, id, { decision: 'approve', arguments: { ...args, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } } });
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

    const agentOfApprover2 = await createApiKey({ tenantId: t.tenant.id, name: 'agent of a2', scopes: ['validate'], createdById: approver2.userId });
    const adminOfApprover2 = await createApiKey({ tenantId: t.tenant.id, name: 'admin of a2', scopes: ['validate', 'admin'], createdById: approver2.userId });
    const byTheirAgent = await requestRefund(2003, { key: agentOfApprover2.key });
    const creator = await asSession(approver2, byTheirAgent.id, { decision: 'approve' });
    expect(creator.status).toBe(403);
    expect(creator.body.error.code).toBe('self_approval');
    const creatorsOtherKey = await call(decide, { key: adminOfApprover2.key, params: { id: byTheirAgent.id }, body: { decision: 'approve' } });
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
    const first = await asSession(approver1, id, { decision: 'approve', comment: 'ok by me' });
    expect(first.body).toMatchObject({ status: 'pending', outcome: 'pending', approvals: 1, approvers_required: 2 });
    expect((await poll(id)).body.approval_token).toBeUndefined();

    const again = await asSession(approver1, id, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('already_voted');
    // A key approver1 created votes as approver1: people are counted, not keys.
    const theirKey = await createApiKey({ tenantId: t.tenant.id, name: 'a1 admin', scopes: ['validate', 'admin'], createdById: approver1.userId });
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
    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).body).toMatchObject({ status: 'approved', approvals: 2 });
  });
});

describe('expiry', () => {
  it('ends an undecided approval as expired (outcome denied), once, with evidence; it cannot be decided after', async () => {
    const { id, traceId } = await requestRefund(5001);
    await db().approval.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await expireOverdueApprovals({ tenantId: t.tenant.id })).toBe(1);
    expect(await expireOverdueApprovals({ tenantId: t.tenant.id })).toBe(0);
    const state = await poll(id);
    expect(state.body).toMatchObject({ status: 'expired', outcome: 'denied' });
    expect(state.body.approval_token).toBeUndefined();
    const late = await asSession(approver1, id, { decision: 'approve' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('approval_expired');
    expect(await decisions(traceId)).toEqual(['expired']);
    // Nothing of the undecided call's arguments is kept.
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).arguments).toBeNull();
  });

  it('expires lazily when read before the sweeper ran, and when someone tries to decide it', async () => {
    const read = await requestRefund(5002);
    const decided = await requestRefund(5003);
    await db().approval.updateMany({ where: { id: { in: [read.id, decided.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await poll(read.id)).body).toMatchObject({ status: 'expired', outcome: 'denied' });
    expect((await asSession(approver1, decided.id, { decision: 'approve' })).body.error.code).toBe('approval_expired');
    expect(await decisions(read.traceId)).toEqual(['expired']);
    expect(await decisions(decided.traceId)).toEqual(['expired']);
  });

  it('survives a restart: pending approvals are read back from the database, decided or swept', async () => {
    const stays = await requestRefund(5004);
    const overdue = await requestRefund(5005);
    // A "restart": this instance's in-memory state is gone; only the database remains.
    const { closeEvidenceWriter } = await import('@/lib/evidence/record-evidence');
    const { disconnectDb } = await import('@/lib/db');
    const { resetApprovalEventsForTests } = await import('@/lib/approvals/approval-events');
    const { resetInstanceSecretForTests } = await import('@/lib/auth/instance-secret');
    const { resetAuthForTests } = await import('@/lib/auth/auth');
    await closeEvidenceWriter();
    await disconnectDb();
    resetApprovalEventsForTests();
    resetInstanceSecretForTests();
    resetAuthForTests();

    await db().approval.update({ where: { id: overdue.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await expireOverdueApprovals()).toBeGreaterThanOrEqual(1);
    expect((await poll(overdue.id)).body.outcome).toBe('denied');
    expect((await poll(stays.id)).body.status).toBe('pending');
    expect((await asSession(approver1, stays.id, { decision: 'approve' })).body.status).toBe('approved');
    expect((await retry(stays.callId, stays.args, (await poll(stays.id)).body.approval_token)).body.decision).toBe('allow');
  });
});

describe('long polling', () => {
  /** Resolves once a GET ?wait= is parked on the approval (it listens for in-process wake-ups). */
  async function parked(id: string) {
    while (waitingOnApproval(id) === 0) await new Promise((r) => setTimeout(r, 10));
  }

  it('returns as soon as another request decides, with the token', async () => {
    const { id } = await requestRefund(6001);
    const started = Date.now();
    const waiting = poll(id, 30);
    await parked(id);
    expect((await asSession(approver1, id, { decision: 'approve' })).status).toBe(200);
    const res = await waiting;
    expect(res.body).toMatchObject({ status: 'approved', outcome: 'approved' });
    expect(res.body.approval_token).toMatch(/^tga_/);
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('sees a decision committed by another instance (no in-process wake-up) at its next read', async () => {
    const { id } = await requestRefund(6002);
    const waiting = poll(id, 30);
    await parked(id);
    await db().approval.update({ where: { id }, data: { status: 'denied', decidedAt: new Date(), comment: 'from elsewhere' } });
    expect((await waiting).body).toMatchObject({ status: 'denied', outcome: 'denied', comment: 'from elsewhere' });
  });

  it('returns the pending state when the time is up, and refuses waits above 30 s', async () => {
    const { id } = await requestRefund(6003);
    const started = Date.now();
    const res = await poll(id, 1);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect((await poll(id, 31)).status).toBe(400);
  });

  it('stops waiting when the client goes away', async () => {
    const { id } = await requestRefund(6004);
    const controller = new AbortController();
    const waiting = waitForApprovalChange({ tenantId: t.tenant.id, id, waitMs: 30_000, signal: controller.signal });
    await parked(id);
    controller.abort();
    await waiting;
    expect(waitingOnApproval(id)).toBe(0);
  });

  it('on the data plane, stops waiting when the agent closes its connection', async () => {
    const { id } = await requestRefund(6005);
    const server = createDataPlaneServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const request = http.get({ host: '127.0.0.1', port, path: `/api/v1/approvals/${id}?wait=30`, headers: { authorization: `Bearer ${t.agentKey}` } });
      request.on('error', () => undefined);
      await parked(id);
      request.destroy();
      // The wait would otherwise hold its listener for the whole 30 s.
      const deadline = Date.now() + 10_000;
      while (waitingOnApproval(id) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(waitingOnApproval(id)).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the queue API', () => {
  it('lists pending approvals newest first with what an approver needs, paged by cursor', async () => {
    const older = await requestRefund(7001);
    const newer = await requestRefund(7002, { userId: 'end-user-7' });
    const page1 = await call(listApprovals, { key: t.adminKey, path: '/api/v1/approvals?status=pending&limit=1' });
    expect(page1.status).toBe(200);
    expect(page1.body.approvals).toHaveLength(1);
    const item = page1.body.approvals[0];
    expect(item).toMatchObject({
      id: newer.id,
      status: 'pending',
      tool: 'payments.refund',
      version: '2.1.0',
      side_effect_level: 'external',
      requesting_key: { id: t.agentKeyId, name: 'agent' },
      user_id: 'end-user-7',
      approvals: 0,
      approvers_required: 1,
      escalation_level: 0,
      policy: null,
      arguments: { ...newer.args, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } },
    });
    expect(item.reason).toContain('approval_required');
    expect(item.time_left_seconds).toBeGreaterThan(0);
    expect(item.trace).toEqual([expect.objectContaining({ kind: 'pre', decision: 'require_approval', codes: ['AXAG_APPROVAL_MISSING'] })]);
    expect(page1.body.counts.pending).toBeGreaterThanOrEqual(2);
    const page2 = await call(listApprovals, { key: t.adminKey, path: `/api/v1/approvals?status=pending&limit=1&cursor=${page1.body.next_cursor}` });
    expect(page2.body.approvals[0].id).toBe(older.id);

    const counts = await call(listApprovals, { headers: { cookie: viewer.cookie }, path: '/api/v1/approvals?limit=0' });
    expect(counts.body).toEqual({ approvals: [], next_cursor: null, counts: { pending: page1.body.counts.pending } });

    await asSession(approver1, older.id, { decision: 'deny', comment: 'no' });
    const decided = await call(listApprovals, { key: t.adminKey, path: '/api/v1/approvals?status=decided&limit=100' });
    const history = decided.body.approvals.find((a: { id: string }) => a.id === older.id);
    expect(history).toMatchObject({ status: 'denied', decided_by_label: `a1-${t.tenant.slug}@test.local`, arguments: null, time_left_seconds: 0, comment: 'no', votes: [expect.objectContaining({ decision: 'deny', approver_label: `a1-${t.tenant.slug}@test.local` })] });
    expect(history.trace.map((s: { kind: string; decision: string }) => `${s.kind}:${s.decision}`)).toEqual(['pre:require_approval', 'approval_decision:denied']);
  });
});

describe('a denial reaches the agent', () => {
  it('as AXAG_APPROVAL_DENIED with the comment, in llm_message too', async () => {
    const { id, args } = await requestRefund(8001);
    await asSession(approver1, id, { decision: 'deny', comment: 'Refunds above 500 need the customer on the phone' });
    const binding = { tenantId: t.tenant.id, tool: 'payments.refund', contractVersion: '2.1.0', argsHash: hashCanonical(args), userId: 'end-user-1' };
    const issue = await findRecentDenial({ binding, withinSeconds: 3600 });
    expect(issue?.code).toBe('AXAG_APPROVAL_DENIED');
    expect(llmMessage({ tool: 'payments.refund', errors: issue ? [issue] : [], warnings: [] })).toContain('Refunds above 500 need the customer on the phone');
    // A different call, or one only expired, is not a denial.
    expect(await findRecentDenial({ binding: { ...binding, argsHash: hashCanonical({ ...args, amount_cents: 1 }) }, withinSeconds: 3600 })).toBeNull();
  });

  it('when the agent simply calls again without a token: denied with the comment, and nothing queued again', async () => {
    const { id, args, callId } = await requestRefund(8002);
    await asSession(approver1, id, { decision: 'deny', comment: 'Ask the customer for the original receipt first' });
    const again = await call(validatePre, { key: t.agentKey, body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context() } });
    expect(again.body.decision).toBe('deny');
    expect(again.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_APPROVAL_DENIED']);
    expect(again.body.llm_message).toContain('Ask the customer for the original receipt first');
    expect(again.body.approval).toBeUndefined();
    expect(await db().approval.count({ where: { tenantId: t.tenant.id, status: 'pending', arguments: { contains: '"amount_cents":8002' } } })).toBe(0);
  });
});
