import { describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/api-client';
import { approver1, asSession, requestRefund, setUpApprovalQueue, t, viewer } from './approval-queue-setup';
import { getApprovalHandler as getApproval, listApprovalsHandler as listApprovals } from '@/lib/api/handlers/approvals';

setUpApprovalQueue();

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
    const page2 = await call(listApprovals, {
      key: t.adminKey,
      path: `/api/v1/approvals?status=pending&limit=1&cursor=${page1.body.next_cursor}`,
    });
    expect(page2.body.approvals[0].id).toBe(older.id);

    const counts = await call(listApprovals, { headers: { cookie: viewer.cookie }, path: '/api/v1/approvals?limit=0' });
    expect(counts.body).toEqual({ approvals: [], next_cursor: null, counts: { pending: page1.body.counts.pending } });

    await asSession(approver1, older.id, { decision: 'deny', comment: 'no' });
    const decided = await call(listApprovals, { key: t.adminKey, path: '/api/v1/approvals?status=decided&limit=100' });
    const history = decided.body.approvals.find((a: { id: string }) => a.id === older.id);
    expect(history).toMatchObject({
      status: 'denied',
      decided_by_label: `a1-${t.tenant.slug}@test.local`,
      arguments: null,
      time_left_seconds: 0,
      comment: 'no',
      votes: [expect.objectContaining({ decision: 'deny', approver_label: `a1-${t.tenant.slug}@test.local` })],
    });
    expect(history.trace.map((s: { kind: string; decision: string }) => `${s.kind}:${s.decision}`)).toEqual([
      'pre:require_approval',
      'approval_decision:denied',
    ]);
  });
});

const poll = (id: string, wait: string) =>
  call(getApproval, { key: t.agentKey, params: { id }, path: `/api/v1/approvals/${id}?wait=${wait}` });

describe('numbers in the queue query', () => {
  it('takes decimal digits only: 0x10 and 1e1 are 400, not 16 and 10', async () => {
    for (const query of ['limit=0x10', 'limit=1e1', 'limit=%2B5']) {
      const res = await call(listApprovals, { key: t.adminKey, path: `/api/v1/approvals?${query}` });
      expect([res.status, res.body.error?.code], query).toEqual([400, 'bad_request']);
    }
    const { id } = await requestRefund(7003);
    for (const wait of ['0x1', '1e0', '0.5']) {
      const res = await poll(id, wait);
      expect([res.status, res.body.error?.code], wait).toEqual([400, 'bad_request']);
    }
    expect((await poll(id, '0')).body.status).toBe('pending');
  });
});
