import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { removeMember } from '@/lib/members/remove-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listApprovalsHandler as listApprovals, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { getTraceHandler as getTrace } from '@/lib/api/handlers/traces';
import { signIn } from './member-sessions';

// People are shown by email wherever a trace or an approval names them (an approver's edit in
// a policy reason, votes, who decided), looked up in the tenant only; someone removed from the
// tenant shows as their id marked "(removed)", even while they belong to another tenant.

type Member = { userId: string; email: string; cookie: string };
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let editor: Member;
let approvalId: string;
let traceId: string;

async function member(tenantId: string, email: string): Promise<Member> {
  const { user } = await addMember({ tenantId, email, password: 'a-long-password', role: 'approver' });
  const signedIn = await signIn(email, 'a-long-password');
  expect(signedIn.status).toBe(200);
  return { userId: user.id, email, cookie: signedIn.cookie };
}

const args = { tenant_id: 'acme', payment_id: 'pay_people0001', reason: 'duplicate', amount_cents: 4100 };
const trace = async () => {
  const res = await call(getTrace, { key: t.adminKey, params: { traceId } });
  expect(res.status).toBe(200);
  return res.body;
};
const card = async () => {
  const res = await call(listApprovals, { key: t.adminKey, path: '/api/v1/approvals?status=all&limit=100' });
  expect(res.status).toBe(200);
  return res.body.approvals.find((a: { id: string }) => a.id === approvalId);
};

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  editor = await member(t.tenant.id, `people-editor-${t.tenant.slug}@test.local`);
  // The same person in another tenant: once removed from this one, that must not show here.
  await addMember({ tenantId: other.tenant.id, email: editor.email, password: 'unused', role: 'approver' });
  const held = await call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: 'people-1',
      arguments: args,
      context: { tenant_id: 'acme', user_id: 'end-user-1', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });
  expect(held.body.decision).toBe('require_approval');
  approvalId = held.body.approval.id;
  traceId = held.body.trace_id;
  const decided = await call(decide, {
    headers: { cookie: editor.cookie },
    params: { id: approvalId },
    body: { decision: 'approve', arguments: { ...args, amount_cents: 2000 }, comment: 'half' },
  });
  expect(decided.body).toMatchObject({ status: 'approved', edited: true });
});

describe('people in a trace', () => {
  it("shows an approver's edit, vote and decision by the approver's email", async () => {
    const body = await trace();
    const decision = body.records.find((r: { kind: string }) => r.kind === 'approval_decision');
    // What the chain holds stays an id; the page reads the label beside it.
    expect(decision.policy.detail.reason).toBe(`arguments edited by approver user:${editor.userId}`);
    expect(body.people).toEqual({ [`user:${editor.userId}`]: editor.email });
    expect(decision.actor_label).toBe(editor.email);
    expect(body.approvals[0]).toMatchObject({
      status: 'approved',
      decided_by: `user:${editor.userId}`,
      decided_by_label: editor.email,
      votes: [{ approver_id: `user:${editor.userId}`, approver_label: editor.email, decision: 'approve' }],
    });
    expect(body.outcome).toMatchObject({ call: 'held', approval: 'approved', result: 'not_run' });
    expect((await card()).decided_by_label).toBe(editor.email);
  });

  it('shows someone removed from the tenant as their id, marked removed, not as another tenant knows them', async () => {
    const membership = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, userId: editor.userId } });
    await removeMember({ tenantId: t.tenant.id, membershipId: membership.id, actor: { kind: 'system' } });
    const removed = `user:${editor.userId} (removed)`;
    const body = await trace();
    expect(body.people).toEqual({ [`user:${editor.userId}`]: removed });
    expect(body.records.find((r: { kind: string }) => r.kind === 'approval_decision').actor_label).toBe(removed);
    expect(body.approvals[0]).toMatchObject({ decided_by_label: removed, votes: [{ approver_label: removed }] });
    const item = await card();
    expect(item.decided_by_label).toBe(removed);
    expect(item.votes[0].approver_label).toBe(removed);
    expect(JSON.stringify(body)).not.toContain(editor.email);
  });
});
