// Approver roles and reasons come from published documents, where any string is one, and were
// written into the approval's text columns as they were: a role with a space came back as two
// roles, so the approval never covered its own call (a retry queued another, and an approved one
// never redeemed); a role or reason with a NUL failed every matching call on PostgreSQL with a
// bare 400 "out of the range the database can hold", while SQLite stored it.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/api-client';
import { createHistoryTenant, pre, publishPolicyDocument, type HistoryTenant } from '@/lib/testing/history-fixtures';
import { decideApprovalHandler as decide, getApprovalHandler as getApproval } from '@/lib/api/handlers/approvals';

let t: HistoryTenant;

beforeAll(async () => {
  t = await createHistoryTenant();
  await publishPolicyDocument(t, {
    id: 'odd-roles',
    version: '1.0.0',
    rules: [
      { id: 'spaced', tools: ['wallet.transfer'], decision: 'require_approval', roles: ['finance team'], reason: 'Big transfers.' },
      { id: 'nul', tools: ['accounts.delete'], decision: 'require_approval', roles: ['fin\u0000ance'], reason: 'Check\u0000first.' },
    ],
  });
});

describe('approver roles and reasons an approval keeps', () => {
  it('a role with a space is one role, and the approved call redeems its token', async () => {
    const args = { account_id: 'acc-1', amount: 10 };
    const held = await pre(t, { args, user: 'u1', callId: 'spaced-1' });
    expect(held.body.decision, JSON.stringify(held.body)).toBe('require_approval');
    const id: string = held.body.approval.id;
    expect((await call(getApproval, { key: t.adminKey, params: { id } })).body.approver_roles).toEqual(['finance team']);

    // A retry before the decision gets the same approval back, not a second one.
    expect((await pre(t, { args, user: 'u1', callId: 'spaced-1' })).body.approval.id).toBe(id);

    expect((await call(decide, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;
    const redeemed = await pre(t, { args, user: 'u1', callId: 'spaced-1', extra: { approval_token: token } });
    expect(redeemed.body).toMatchObject({ decision: 'allow', errors: [] });
  });

  it('a role or reason with a NUL: the call is held for approval on both databases, the role kept as written', async () => {
    const held = await pre(t, { tool: 'accounts.delete', args: { account_id: 'acc-2' }, user: 'u1', callId: 'nul-1' });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.decision).toBe('require_approval');
    const approval = await call(getApproval, { key: t.adminKey, params: { id: held.body.approval.id } });
    expect(approval.body).toMatchObject({ approver_roles: ['fin\u0000ance'], reason: 'Check\ufffdfirst.' });
  });
});
