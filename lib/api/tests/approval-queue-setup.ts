// The approval queue tests' shared set-up: two tenants with the example contracts, four signed-in
// members of the first, and helpers that request a refund needing approval and decide it.
import { beforeAll, expect } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { db } from '@/lib/db';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { getApprovalHandler as getApproval, decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';

export type Member = { userId: string; cookie: string };
// Assigned by setUpApprovalQueue's beforeAll; test files read them through these live bindings.
export let t: Awaited<ReturnType<typeof createTestTenant>>;
export let other: Awaited<ReturnType<typeof createTestTenant>>;
export let approver1: Member;
export let approver2: Member;
export let admin: Member;
export let viewer: Member;

async function member(tenantId: string, role: 'viewer' | 'approver' | 'admin', email: string): Promise<Member> {
  const { user } = await addMember({ tenantId, email, password: 'a-long-password', role });
  const response = await authPost(
    new Request('http://localhost:3000/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email, password: 'a-long-password' }),
    }),
  );
  expect(response.status).toBe(200);
  return {
    userId: user.id,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

/** Registers the shared tenants and members: call once at the top of each approval queue test file. */
export function setUpApprovalQueue() {
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
}

const baseArgs = {
  tenant_id: 'acme',
  payment_id: 'pay_abcdefgh12',
  reason: 'duplicate',
  card: { last4: '4242', holder_name: 'Ada Lovelace' },
};
export const context = (userId = 'end-user-1') => ({
  tenant_id: 'acme',
  user_id: userId,
  roles: ['support'],
  state: { payment_status: 'captured' },
});
let callCounter = 0;

/** A refund that needs approval; distinct amounts keep approvals apart. */
export async function requestRefund(amount: number, options: { key?: string; userId?: string } = {}) {
  const args = { ...baseArgs, amount_cents: amount };
  const callId = `q-${++callCounter}`;
  const res = await call(validatePre, {
    key: options.key ?? t.agentKey,
    body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context(options.userId) },
  });
  expect(res.body.decision).toBe('require_approval');
  return { id: res.body.approval.id as string, args, callId, traceId: res.body.trace_id as string };
}

export const retry = (callId: string, args: Record<string, unknown>, token: string, userId?: string) =>
  call(validatePre, {
    key: t.agentKey,
    body: { tool: 'payments.refund', call_id: callId, arguments: args, context: context(userId), approval_token: token },
  });

export const asSession = (m: Member, id: string, body: Record<string, unknown>) =>
  call(decide, { headers: { cookie: m.cookie }, params: { id }, body });
export const poll = (id: string, wait?: number) =>
  call(getApproval, { key: t.agentKey, params: { id }, path: `/api/v1/approvals/${id}${wait === undefined ? '' : `?wait=${wait}`}` });
export const decisions = async (traceId: string) =>
  (
    await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, traceId, kind: 'approval_decision' },
      orderBy: { seq: 'asc' },
    })
  ).map((e) => e.decision);
