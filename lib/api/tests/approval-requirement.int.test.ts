import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { call } from '@/lib/testing/api-client';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';
import { admin, approver1, asSession, poll, requestRefund, retry, setUpApprovalQueue, t } from './approval-queue-setup';

// An approval covers the call it was given for, by the people it was given by. An approver who
// edits a refund into one a policy sends to admins, or a stricter policy published between the
// approval and its use, must not let the call run on the weaker approval.
setUpApprovalQueue();

let version = 0;
async function publishEscalation(overAmount: number) {
  const key = (await createApiKey({ tenantId: t.tenant.id, name: `author-${++version}`, scopes: ['author'] })).key;
  const document = {
    id: 'huge-refunds',
    version: `1.0.${version}`,
    rules: [
      {
        id: 'escalate-huge',
        tools: ['payments.refund'],
        when: `args.amount_cents > ${overAmount}`,
        decision: 'escalate',
        roles: ['admin'],
        reason: 'Huge refunds are for admins.',
      },
    ],
  };
  expect((await call(savePolicy, { key, body: document })).status).toBeLessThan(300);
  const published = await call(publishPolicy, { key, params: { id: document.id, version: document.version }, body: { mode: 'enforce' } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

beforeAll(async () => {
  await publishEscalation(50_000);
});

describe('an approval that no longer covers the call', () => {
  it("an approver's edit into a call that needs admins: the token does not run it; a new approval for admins is queued, and that one does", async () => {
    const { id, args, callId } = await requestRefund(12_000);
    const edited = { ...args, amount_cents: 90_000 };
    const approved = await asSession(approver1, id, { decision: 'approve', arguments: edited });
    expect(approved.status).toBe(200);
    const { approval_token: token, arguments: runArgs } = (await poll(id)).body;
    expect(runArgs).toEqual(edited);

    const redeemed = await retry(callId, edited, token);
    expect(redeemed.body.decision).toBe('escalate');
    const issue = redeemed.body.errors.find((e: { code: string }) => e.code === 'AXAG_ESCALATION_REQUIRED');
    expect(issue.details).toMatchObject({ approver_roles: ['admin'], shortfall: 'roles' });
    expect(issue.message).toMatch(/^The approval behind the approval_token was given for approver, which no longer covers this call/);
    const fresh = redeemed.body.approval.id as string;
    expect(fresh).not.toBe(id);
    // Asked again (with or without the old token), the call gets the admins' approval, not the old one back.
    expect((await retry(callId, edited, token)).body.approval.id).toBe(fresh);

    // The old token stays unused; the admins' approval, once given, runs the call.
    expect((await asSession(admin, fresh, { decision: 'approve' })).status).toBe(200);
    const adminToken = (await poll(fresh)).body.approval_token;
    expect((await retry(callId, edited, adminToken)).body.decision).toBe('allow');
  });

  it('a stricter policy published after the approval: the approved token holds the call for the new requirement', async () => {
    const { id, args, callId } = await requestRefund(30_000);
    expect((await asSession(approver1, id, { decision: 'approve' })).status).toBe(200);
    const token = (await poll(id)).body.approval_token;
    await publishEscalation(20_000);
    const redeemed = await retry(callId, args, token);
    expect(redeemed.body.decision).toBe('escalate');
    expect(redeemed.body.approval.id).not.toBe(id);
  });

  it('an approval that covers the call still runs it, and one admins gave covers any role', async () => {
    const small = await requestRefund(1_500);
    expect((await asSession(approver1, small.id, { decision: 'approve' })).status).toBe(200);
    expect((await retry(small.callId, small.args, (await poll(small.id)).body.approval_token)).body.decision).toBe('allow');

    const escalated = await requestRefund(1_600);
    expect((await asSession(approver1, escalated.id, { decision: 'escalate' })).status).toBe(200);
    expect((await asSession(admin, escalated.id, { decision: 'approve' })).status).toBe(200);
    expect((await retry(escalated.callId, escalated.args, (await poll(escalated.id)).body.approval_token)).body.decision).toBe('allow');
  });
});
