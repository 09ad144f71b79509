import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { expireOverdueApprovals } from '@/lib/approvals/expire-approval';
import { call } from '@/lib/testing/api-client';
import { signIn } from './member-sessions';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listApprovalsHandler as listApprovals, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { getTraceHandler as getTrace } from '@/lib/api/handlers/traces';

// What the approval card is built from (GET /api/v1/approvals): the context the agent sent,
// stored with the approval and cleared with its arguments; what each viewer may do and why
// not; what an edit changed; an escalation's comment for the next level.

type Member = { userId: string; email: string; cookie: string };
let t: Awaited<ReturnType<typeof createTestTenant>>;
let approver1: Member;
let approver2: Member;
let admin: Member;
let viewer: Member;

async function member(tenantId: string, role: 'viewer' | 'approver' | 'admin', email: string): Promise<Member> {
  const { user } = await addMember({ tenantId, email, password: 'a-long-password', role });
  const signedIn = await signIn(email, 'a-long-password');
  expect(signedIn.status).toBe(200);
  return { userId: user.id, email, cookie: signedIn.cookie };
}

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  approver1 = await member(t.tenant.id, 'approver', `card-a1-${t.tenant.slug}@test.local`);
  approver2 = await member(t.tenant.id, 'approver', `card-a2-${t.tenant.slug}@test.local`);
  admin = await member(t.tenant.id, 'admin', `card-admin-${t.tenant.slug}@test.local`);
  viewer = await member(t.tenant.id, 'viewer', `card-viewer-${t.tenant.slug}@test.local`);
});

const baseArgs = {
  tenant_id: 'acme',
  payment_id: 'pay_abcdefgh12',
  reason: 'duplicate',
  card: { last4: '4242', holder_name: 'Ada Lovelace' },
};
// Hidden characters in the claims, in a key and in values: they must come back exactly as sent.
const claimedContext = (userId: string) => ({
  tenant_id: 'acme',
  user_id: userId,
  roles: ['support', 'fin\u200Bance'],
  state: { payment_status: 'captured', note: '\u202Eevil', ['k\u2066ey']: 1 },
});
let callCounter = 0;

async function requestRefund(amount: number, options: { key?: string; userId?: string } = {}) {
  const args = { ...baseArgs, amount_cents: amount };
  const context = claimedContext(options.userId ?? 'end-user-1');
  const res = await call(validatePre, {
    key: options.key ?? t.agentKey,
    body: { tool: 'payments.refund', call_id: `card-${++callCounter}`, arguments: args, context },
  });
  expect(res.body.decision).toBe('require_approval');
  return { id: res.body.approval.id as string, args, context, traceId: res.body.trace_id as string };
}

const asSession = (m: Member, id: string, body: Record<string, unknown>) =>
  call(decide, { headers: { cookie: m.cookie }, params: { id }, body });

/** One approval as the queue shows it to this viewer (a member's session or an API key). */
async function cardFor(who: Member | { key: string }, id: string, status = 'all') {
  const res = await call(listApprovals, {
    ...('key' in who ? { key: who.key } : { headers: { cookie: who.cookie } }),
    path: `/api/v1/approvals?status=${status}&limit=100`,
  });
  expect(res.status).toBe(200);
  const item = res.body.approvals.find((a: { id: string }) => a.id === id);
  expect(item).toBeDefined();
  return item;
}

describe('the context the agent sent', () => {
  it('is stored with the approval exactly as sent and returned as its claim', async () => {
    const { id, context } = await requestRefund(5001);
    const row = await db().approval.findUniqueOrThrow({ where: { id } });
    expect(JSON.parse(row.context ?? 'null')).toEqual(context);
    const card = await cardFor(approver1, id);
    expect(card.context).toEqual(context);
    expect(card.context.state.note).toBe('\u202Eevil');
    expect(Object.keys(card.context.state)).toContain('k\u2066ey');
    expect(card).toMatchObject({
      user_id: 'end-user-1',
      context_omitted: false,
      arguments_diff: null,
      escalation: null,
      call_id: `card-${callCounter}`,
    });
  });

  it('is cleared with the arguments when the approval is approved, denied or expires', async () => {
    const approved = await requestRefund(5002);
    expect((await asSession(approver1, approved.id, { decision: 'approve' })).body.status).toBe('approved');
    const denied = await requestRefund(5003);
    expect((await asSession(approver1, denied.id, { decision: 'deny' })).body.status).toBe('denied');
    const expired = await requestRefund(5004);
    await db().approval.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expireOverdueApprovals({ tenantId: t.tenant.id });
    for (const { id } of [approved, denied, expired]) {
      const row = await db().approval.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ arguments: null, context: null });
      const card = await cardFor(admin, id);
      expect(card).toMatchObject({ context: null, arguments: null });
      // The end user stays: it is part of the call's binding, not a retained payload.
      expect(card.user_id).toBe('end-user-1');
    }
  });

  it('shows on the trace page while pending, and not after', async () => {
    const { id, context, traceId } = await requestRefund(5005);
    const pending = await call(getTrace, { headers: { cookie: viewer.cookie }, params: { traceId } });
    expect(pending.status).toBe(200);
    expect(pending.body.approvals[0]).toMatchObject({ id, user_id: 'end-user-1', context });
    await asSession(approver2, id, { decision: 'deny' });
    const decided = await call(getTrace, { headers: { cookie: viewer.cookie }, params: { traceId } });
    expect(decided.body.approvals[0]).toMatchObject({ id, user_id: 'end-user-1', context: null });
  });
});

describe('what each viewer may do, and why not', () => {
  it('lets an approver of a named role and an admin decide; a viewer cannot', async () => {
    const { id } = await requestRefund(5101);
    expect((await cardFor(approver1, id)).viewer).toEqual({
      can_decide: true,
      can_approve: true,
      can_escalate: true,
      cannot_decide_reason: null,
    });
    expect((await cardFor(admin, id)).viewer).toEqual({
      can_decide: true,
      can_approve: true,
      can_escalate: true,
      cannot_decide_reason: null,
    });
    expect((await cardFor({ key: t.adminKey }, id)).viewer).toEqual({
      can_decide: true,
      can_approve: true,
      can_escalate: true,
      cannot_decide_reason: null,
    });
    const asViewer = (await cardFor(viewer, id)).viewer;
    expect(asViewer).toMatchObject({
      can_decide: false,
      can_approve: false,
      can_escalate: false,
      cannot_decide_reason: { code: 'no_permission' },
    });
    expect(asViewer.cannot_decide_reason.message).toContain('your role is viewer');
    // What the card says is what deciding does.
    expect((await asSession(viewer, id, { decision: 'deny' })).status).toBe(403);
  });

  it('tells an approver of another role that the escalated approval needs an admin; the admin may approve', async () => {
    const { id } = await requestRefund(5102);
    expect((await asSession(approver1, id, { decision: 'escalate', comment: 'above my limit' })).status).toBe(200);
    const other = (await cardFor(approver2, id)).viewer;
    expect(other).toEqual({
      can_decide: false,
      can_approve: false,
      can_escalate: false,
      cannot_decide_reason: { code: 'role', message: 'Deciding this call needs one of the roles: admin; your role is approver.' },
    });
    const refused = await asSession(approver2, id, { decision: 'approve' });
    expect(refused.status).toBe(403);
    expect((await cardFor(admin, id)).viewer).toEqual({
      can_decide: true,
      can_approve: true,
      can_escalate: false,
      cannot_decide_reason: null,
    });
    expect((await asSession(admin, id, { decision: 'approve' })).body.status).toBe('approved');
  });

  it("tells the requesting key's creator, the end user and the requesting key that they cannot approve, but may deny", async () => {
    const theirAgent = await createApiKey({
      tenantId: t.tenant.id,
      name: 'agent of a1',
      scopes: ['validate'],
      createdById: approver1.userId,
    });
    const byTheirAgent = await requestRefund(5103, { key: theirAgent.key });
    const creator = (await cardFor(approver1, byTheirAgent.id)).viewer;
    expect(creator).toMatchObject({
      can_decide: true,
      can_approve: false,
      can_escalate: true,
      cannot_decide_reason: { code: 'requester_key_creator' },
    });
    expect(creator.cannot_decide_reason.message).toBe(
      'You cannot approve this call: you created the API key that made it. Another approver must approve it. You may still deny it or escalate it.',
    );
    expect((await asSession(approver1, byTheirAgent.id, { decision: 'approve' })).body.error.code).toBe('self_approval');
    expect((await cardFor(approver2, byTheirAgent.id)).viewer.can_approve).toBe(true);

    const forApprover2 = await requestRefund(5104, { userId: approver2.userId });
    expect((await cardFor(approver2, forApprover2.id)).viewer.cannot_decide_reason.code).toBe('requester_end_user');

    const byAdminKey = await requestRefund(5105, { key: t.adminKey });
    expect((await cardFor({ key: t.adminKey }, byAdminKey.id)).viewer).toMatchObject({
      can_decide: true,
      can_approve: false,
      cannot_decide_reason: { code: 'requester_key' },
    });
    expect((await call(decide, { key: t.adminKey, params: { id: byAdminKey.id }, body: { decision: 'deny' } })).body.status).toBe('denied');
  });

  it('tells someone who already approved that each approver counts once, and a settled approval that it is settled', async () => {
    const { id } = await requestRefund(5106);
    await db().approval.update({ where: { id }, data: { approversRequired: 2 } });
    expect((await asSession(approver1, id, { decision: 'approve' })).body.status).toBe('pending');
    const voted = (await cardFor(approver1, id)).viewer;
    expect(voted).toMatchObject({ can_decide: true, can_approve: false, cannot_decide_reason: { code: 'already_voted' } });
    expect(voted.cannot_decide_reason.message).toContain('It waits for 1 more approval.');
    expect((await cardFor(approver2, id)).viewer.can_approve).toBe(true);
    expect((await asSession(approver2, id, { decision: 'approve' })).body.status).toBe('approved');
    expect((await cardFor(approver2, id)).viewer).toEqual({
      can_decide: false,
      can_approve: false,
      can_escalate: false,
      cannot_decide_reason: { code: 'decided', message: 'This approval is already approved.' },
    });
  });
});

describe('edited arguments', () => {
  it('come with a diff against the agent’s arguments that keeps sensitive values redacted', async () => {
    const { id, args } = await requestRefund(5201);
    await db().approval.update({ where: { id }, data: { approversRequired: 2 } });
    const edited = { ...args, amount_cents: 2500, card: { last4: '1111', holder_name: '[REDACTED]' } };
    const first = await asSession(approver1, id, { decision: 'approve', arguments: edited, comment: 'half, other card' });
    expect(first.body).toMatchObject({ status: 'pending', edited: true, approvals: 1 });
    const card = await cardFor(approver2, id);
    expect(card.edited).toBe(true);
    expect(card.arguments).toEqual({ ...args, amount_cents: 2500, card: { last4: '[REDACTED]', holder_name: '[REDACTED]' } });
    expect(card.arguments_diff).toEqual({
      changes: [
        { kind: 'changed', path: '$.amount_cents', before: 5201, after: 2500 },
        { kind: 'changed', path: '$.card.last4', before: '[REDACTED]', after: '[REDACTED]' },
      ],
      truncated: false,
    });
    // Every value the card shows (ids and hashes left out: random hex may hold any four digits).
    const shown = JSON.stringify({
      arguments: card.arguments,
      diff: card.arguments_diff,
      context: card.context,
      votes: card.votes,
      comment: card.comment,
    });
    expect(shown).not.toContain('1111');
    expect(shown).not.toContain('4242');
    // The agent's arguments are still stored beside the edit, which is what the diff is against.
    const row = await db().approval.findUniqueOrThrow({ where: { id } });
    expect(JSON.parse(row.arguments ?? 'null')).toEqual(args);
    expect(JSON.parse(row.editedArguments ?? 'null')).toEqual({ ...edited, card: { last4: '1111', holder_name: 'Ada Lovelace' } });
  });

  it('have no diff when nothing was edited', async () => {
    const { id } = await requestRefund(5202);
    expect((await cardFor(approver1, id)).arguments_diff).toBeNull();
  });
});

describe('escalation', () => {
  it('shows the escalator and their comment to the next level while it is pending', async () => {
    const { id } = await requestRefund(5301);
    const comment = 'Customer is a reseller: finance must confirm.';
    expect((await asSession(approver1, id, { decision: 'escalate', comment })).body).toMatchObject({
      status: 'pending',
      escalation_level: 1,
      approver_roles: ['admin'],
    });
    const card = await cardFor(admin, id, 'pending');
    expect(card.escalation).toEqual({ by: `user:${approver1.userId}`, by_label: approver1.email, at: expect.any(String), comment });
    expect(card.escalated_at).toBe(card.escalation.at);
    expect(card.votes).toEqual([]);
    // Once decided, the comment on the approval is the decision's.
    await asSession(admin, id, { decision: 'deny', comment: 'no' });
    const decided = await cardFor(admin, id);
    expect(decided.comment).toBe('no');
    expect(decided.escalation).toMatchObject({ by: `user:${approver1.userId}`, comment: null });
  });

  it('names no person when nobody escalated it', async () => {
    const { id } = await requestRefund(5302);
    expect((await cardFor(admin, id)).escalation).toBeNull();
    await db().approval.update({ where: { id }, data: { escalationLevel: 1, approverRoles: 'admin', escalatedAt: new Date() } });
    expect((await cardFor(admin, id)).escalation).toMatchObject({ by: null, by_label: null, comment: null });
  });
});
