// A key made with another key belongs to that key's person: approvals count it as that person
// (one vote) and refuse that person approving its calls (self_approval). A key made by a key
// with no person (the bootstrap key) has none either, and counts as itself.
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { createApiKeyHandler as createKey } from '@/lib/api/handlers/api-keys';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';
import { admin, approver1, asSession, requestRefund, setUpApprovalQueue, t } from './approval-queue-setup';

setUpApprovalQueue();

const adminScopes = ['validate', 'admin'];

async function keyMadeWith(auth: { key: string } | { cookie: string }, name: string, scopes = adminScopes) {
  const res = await call(createKey, {
    ...('key' in auth ? { key: auth.key } : { headers: { cookie: auth.cookie } }),
    body: { name, scopes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const row = await db().apiKey.findUniqueOrThrow({ where: { id: res.body.api_key.id } });
  return { key: res.body.key as string, createdById: row.createdById };
}

const vote = (key: string, id: string) => call(decide, { key, params: { id }, body: { decision: 'approve' } });

describe('a key made with a key', () => {
  it("carries the creating key's person, down a chain; a key made by a key without a person has none", async () => {
    const k1 = await keyMadeWith({ cookie: admin.cookie }, 'K1');
    expect(k1.createdById).toBe(admin.userId);
    const a = await keyMadeWith(k1, 'A');
    const agent = await keyMadeWith(k1, 'agent of K1', ['validate']);
    const grandchild = await keyMadeWith(a, 'made by A');
    expect([a.createdById, agent.createdById, grandchild.createdById]).toEqual([admin.userId, admin.userId, admin.userId]);
    // The bootstrap key (t.adminKey) was made with no person.
    expect((await keyMadeWith({ key: t.adminKey }, 'made by the bootstrap key')).createdById).toBeNull();
  });

  it('votes as its person: K1, A and B made by K1 are one approver of three needed', async () => {
    const k1 = await keyMadeWith({ cookie: admin.cookie }, 'K1 votes');
    const a = await keyMadeWith(k1, 'A votes');
    const b = await keyMadeWith(k1, 'B votes');
    const { id } = await requestRefund(9101);
    await db().approval.update({ where: { id }, data: { approversRequired: 3 } });

    const first = await vote(k1.key, id);
    expect(first.body).toMatchObject({ status: 'pending', approvals: 1, approvers_required: 3 });
    for (const key of [a.key, b.key]) {
      const again = await vote(key, id);
      expect(again.status).toBe(409);
      expect(again.body.error.details.reason).toBe('already_voted');
    }
    // The admin in person is the same approver too.
    expect((await asSession(admin, id, { decision: 'approve' })).status).toBe(409);
    expect((await db().approval.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    expect(await db().approvalVote.count({ where: { approvalId: id } })).toBe(1);
  });

  it('keys made by a key without a person each count as themselves', async () => {
    const x = await keyMadeWith({ key: t.adminKey }, 'X');
    const y = await keyMadeWith({ key: t.adminKey }, 'Y');
    const { id } = await requestRefund(9102);
    await db().approval.update({ where: { id }, data: { approversRequired: 3 } });
    expect((await vote(x.key, id)).body).toMatchObject({ status: 'pending', approvals: 1 });
    expect((await vote(y.key, id)).body).toMatchObject({ status: 'pending', approvals: 2 });
  });

  it('refuses its person approving the calls it asked for (403 self_approval); someone else may', async () => {
    const k1 = await keyMadeWith({ cookie: admin.cookie }, 'K1 self');
    const agent = await keyMadeWith(k1, 'agent self', ['validate']);
    const { id } = await requestRefund(9103, { key: agent.key });

    const byAdmin = await asSession(admin, id, { decision: 'approve' });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe('self_approval');
    const byK1 = await vote(k1.key, id);
    expect(byK1.status).toBe(403);
    expect(byK1.body.error.code).toBe('self_approval');

    expect((await asSession(approver1, id, { decision: 'approve' })).body.status).toBe('approved');
  });
});
