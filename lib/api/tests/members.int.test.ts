import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { asSession, signIn } from './member-sessions';
import { revokeInvitationHandler as revokeInvitation } from '@/lib/api/handlers/invitations';
import {
  listMembersHandler as listMembers,
  inviteMemberHandler as invite,
  changeMemberRoleHandler as changeRole,
  removeMemberHandler as removeMember,
} from '@/lib/api/handlers/members';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let adminCookie = '';
let viewerCookie = '';
let adminUserId = '';

beforeAll(async () => {
  t = await createTestTenant({ slug: 'members-a' });
  other = await createTestTenant({ slug: 'members-b' });
  adminUserId = (await addMember({ tenantId: t.tenant.id, email: 'admin@members.test', password: 'admin-password', role: 'admin' })).user
    .id;
  await addMember({ tenantId: t.tenant.id, email: 'viewer@members.test', password: 'viewer-password', role: 'viewer' });
  await addMember({ tenantId: other.tenant.id, email: 'admin@other.test', password: 'other-password', role: 'admin' });
  adminCookie = (await signIn('admin@members.test', 'admin-password')).cookie;
  viewerCookie = (await signIn('viewer@members.test', 'viewer-password')).cookie;
});

async function membershipOf(tenantId: string, email: string) {
  return db().membership.findFirstOrThrow({ where: { tenantId, user: { email } } });
}

async function membershipRecords(tenantId: string) {
  const rows = await db().evidence.findMany({ where: { tenant: { tenantId }, kind: 'membership' }, orderBy: { seq: 'asc' } });
  return rows.map((r) => ({
    action: r.decision,
    tool: r.tool,
    actorUserId: r.actorUserId,
    apiKeyId: r.apiKeyId,
    details: JSON.parse(r.details ?? '{}') as Record<string, unknown>,
  }));
}

describe('who may manage members', () => {
  it('an admin session and an admin-scoped key may; a viewer session, a validate-only key and nobody may not', async () => {
    const bySession = await call(listMembers, { headers: asSession(adminCookie) });
    expect(bySession.status).toBe(200);
    expect(bySession.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['admin@members.test', 'admin'],
      ['viewer@members.test', 'viewer'],
    ]);
    expect(bySession.body.members[0]).toEqual({
      id: expect.any(String),
      user_id: adminUserId,
      email: 'admin@members.test',
      name: 'admin',
      role: 'admin',
      created_at: expect.any(String),
    });
    expect((await call(listMembers, { key: t.adminKey })).status).toBe(200);

    const viewer = await call(listMembers, { headers: asSession(viewerCookie) });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe('forbidden');
    const viewerInvite = await call(invite, { headers: asSession(viewerCookie), body: { email: 'x@members.test', role: 'admin' } });
    expect(viewerInvite.status).toBe(403);
    const agent = await call(invite, { key: t.agentKey, body: { email: 'x@members.test', role: 'viewer' } });
    expect(agent.status).toBe(403);
    expect(agent.body.error.details.required_scope).toBe('admin');
    expect((await call(listMembers, {})).status).toBe(401);
    expect(await db().invitation.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });
});

describe('inviting', () => {
  it('answers 201 with the link once; the database holds only the token hash', async () => {
    const res = await call(invite, { key: t.adminKey, body: { email: '  New.Person@Members.TEST ', role: 'approver' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      invitation: {
        email: 'new.person@members.test',
        role: 'approver',
        invited_by: `api_key:${(await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id, name: 'admin' } })).id}`,
      },
      email_sent: false,
      email_not_sent_reason: 'not_configured',
    });
    const url = new URL(res.body.invitation_url);
    expect(url.origin).toBe('http://localhost:3000');
    const token = /^\/invite\/([A-Za-z0-9_-]{43})$/.exec(url.pathname)?.[1] ?? '';
    expect(token).not.toBe('');
    const expiresIn = Date.parse(res.body.invitation.expires_at) - Date.parse(res.body.invitation.created_at);
    expect(expiresIn).toBe(7 * 24 * 3600 * 1000);

    const row = await db().invitation.findUniqueOrThrow({ where: { id: res.body.invitation.id } });
    const { createHash } = await import('node:crypto');
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    // Nothing stored anywhere carries the token itself.
    expect(JSON.stringify(row)).not.toContain(token);
    const evidence = await db().evidence.findMany({ where: { tenant: { tenantId: t.tenant.id } } });
    expect(JSON.stringify(evidence)).not.toContain(token);

    const listed = await call(listMembers, { key: t.adminKey });
    expect(listed.body.invitations).toEqual([
      {
        id: row.id,
        email: 'new.person@members.test',
        role: 'approver',
        created_at: row.createdAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
        invited_by: row.invitedBy,
      },
    ]);
  });

  it('re-inviting a pending email revokes the old link and issues a new one', async () => {
    const first = await call(invite, { headers: asSession(adminCookie), body: { email: 'again@members.test', role: 'viewer' } });
    const second = await call(invite, { headers: asSession(adminCookie), body: { email: 'again@members.test', role: 'author' } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.invitation.invited_by).toBe(`user:${adminUserId}`);
    const rows = await db().invitation.findMany({
      where: { tenantId: t.tenant.id, email: 'again@members.test' },
      orderBy: { createdAt: 'asc' },
    });
    expect(rows.map((r) => [r.role, r.revokedAt !== null])).toEqual([
      ['viewer', true],
      ['author', false],
    ]);
    const records = await membershipRecords(t.tenant.id);
    expect(records.at(-1)?.details).toMatchObject({
      invitation_id: second.body.invitation.id,
      email: 'again@members.test',
      role: 'author',
      replaced_invitation_ids: [first.body.invitation.id],
    });
  });

  it('refuses a member (409), a bad or too long email (400) and unknown fields or roles (400)', async () => {
    const member = await call(invite, { key: t.adminKey, body: { email: 'VIEWER@members.test', role: 'admin' } });
    expect(member.status).toBe(409);
    expect(member.body.error).toMatchObject({ code: 'conflict', details: { reason: 'already_member', role: 'viewer' } });
    for (const body of [
      { email: 'not-an-email', role: 'viewer' },
      { email: `${'a'.repeat(250)}@x.io`, role: 'viewer' },
      { email: 'ok@members.test', role: 'owner' },
      { email: 'ok@members.test', role: 'viewer', tenant: 'members-b' },
      { email: 'ok@members.test' },
    ]) {
      const res = await call(invite, { key: t.adminKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    expect(await db().invitation.count({ where: { email: 'ok@members.test' } })).toBe(0);
  });
});

describe('revoking an invitation', () => {
  it("revokes a pending one once; another tenant's is not found", async () => {
    const created = await call(invite, { key: t.adminKey, body: { email: 'revoke-me@members.test', role: 'viewer' } });
    const id: string = created.body.invitation.id;
    expect((await call(revokeInvitation, { key: other.adminKey, params: { id } })).status).toBe(404);
    const revoked = await call(revokeInvitation, { headers: asSession(adminCookie), params: { id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id, email: 'revoke-me@members.test', revoked: true });
    const again = await call(revokeInvitation, { key: t.adminKey, params: { id } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'conflict', details: { reason: 'revoked' } });
    expect((await db().invitation.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();
    const listed = await call(listMembers, { key: t.adminKey });
    expect(listed.body.invitations.map((i: { id: string }) => i.id)).not.toContain(id);
  });
});

describe('changing roles', () => {
  it("takes effect at the person's next request", async () => {
    await addMember({ tenantId: t.tenant.id, email: 'rising@members.test', password: 'rising-password', role: 'viewer' });
    const cookie = (await signIn('rising@members.test', 'rising-password')).cookie;
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(403);
    const membership = await membershipOf(t.tenant.id, 'rising@members.test');

    const promoted = await call(changeRole, { headers: asSession(adminCookie), params: { id: membership.id }, body: { role: 'admin' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.member).toMatchObject({ id: membership.id, email: 'rising@members.test', role: 'admin' });
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(200);

    const demoted = await call(changeRole, { key: t.adminKey, params: { id: membership.id }, body: { role: 'approver' } });
    expect(demoted.status).toBe(200);
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(403);
    expect((await membershipOf(t.tenant.id, 'rising@members.test')).role).toBe('approver');
  });

  it("does not find another tenant's member, and refuses an unknown role", async () => {
    const foreign = await membershipOf(other.tenant.id, 'admin@other.test');
    const res = await call(changeRole, { key: t.adminKey, params: { id: foreign.id }, body: { role: 'viewer' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await call(removeMember, { key: t.adminKey, params: { id: foreign.id } })).status).toBe(404);
    expect((await membershipOf(other.tenant.id, 'admin@other.test')).role).toBe('admin');
    const viewer = await membershipOf(t.tenant.id, 'viewer@members.test');
    expect((await call(changeRole, { key: t.adminKey, params: { id: viewer.id }, body: { role: 'root' } })).status).toBe(400);
  });
});

describe('the last admin', () => {
  it('cannot be demoted or removed, by themselves or by a key; with a second admin they can', async () => {
    const solo = await createTestTenant({ slug: 'members-solo' });
    await addMember({ tenantId: solo.tenant.id, email: 'solo@members.test', password: 'solo-password', role: 'admin' });
    const cookie = (await signIn('solo@members.test', 'solo-password')).cookie;
    const own = await membershipOf(solo.tenant.id, 'solo@members.test');

    for (const res of [
      await call(changeRole, { headers: asSession(cookie), params: { id: own.id }, body: { role: 'viewer' } }),
      await call(changeRole, { key: solo.adminKey, params: { id: own.id }, body: { role: 'approver' } }),
      await call(removeMember, { headers: asSession(cookie), params: { id: own.id } }),
      await call(removeMember, { key: solo.adminKey, params: { id: own.id } }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'last_admin', details: { membership_id: own.id } });
    }
    expect((await membershipOf(solo.tenant.id, 'solo@members.test')).role).toBe('admin');
    expect(await membershipRecords(solo.tenant.id)).toEqual([]);

    await addMember({ tenantId: solo.tenant.id, email: 'second@members.test', password: 'second-password', role: 'viewer' });
    const second = await membershipOf(solo.tenant.id, 'second@members.test');
    expect((await call(changeRole, { headers: asSession(cookie), params: { id: second.id }, body: { role: 'admin' } })).status).toBe(200);
    const stepDown = await call(changeRole, { headers: asSession(cookie), params: { id: own.id }, body: { role: 'viewer' } });
    expect(stepDown.status).toBe(200);
    // No longer an admin: the same session cannot manage members any more.
    expect((await call(changeRole, { headers: asSession(cookie), params: { id: own.id }, body: { role: 'admin' } })).status).toBe(403);
  });
});

describe('removing a member', () => {
  it("ends the person's sessions at once when they belong nowhere else", async () => {
    await addMember({ tenantId: t.tenant.id, email: 'leaving@members.test', password: 'leaving-password', role: 'admin' });
    const cookie = (await signIn('leaving@members.test', 'leaving-password')).cookie;
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(200);
    const membership = await membershipOf(t.tenant.id, 'leaving@members.test');
    expect(await db().session.count({ where: { userId: membership.userId } })).toBe(1);

    const res = await call(removeMember, { headers: asSession(adminCookie), params: { id: membership.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: membership.id,
      user_id: membership.userId,
      email: 'leaving@members.test',
      removed: true,
      sessions_ended: 1,
    });
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(401);
    expect(await db().session.count({ where: { userId: membership.userId } })).toBe(0);
    expect(await db().membership.count({ where: { userId: membership.userId } })).toBe(0);
    // The account stays: evidence names it.
    expect(await db().user.count({ where: { id: membership.userId } })).toBe(1);
    expect((await call(removeMember, { key: t.adminKey, params: { id: membership.id } })).status).toBe(404);
  });

  it('keeps the sessions of someone who belongs to another tenant, which they then act in', async () => {
    await addMember({ tenantId: t.tenant.id, email: 'two-homes@members.test', password: 'two-homes-password', role: 'viewer' });
    await addMember({ tenantId: other.tenant.id, email: 'two-homes@members.test', password: 'two-homes-password', role: 'admin' });
    const cookie = (await signIn('two-homes@members.test', 'two-homes-password')).cookie;
    // The first membership decides where they act: tenant A, as viewer.
    expect((await call(listMembers, { headers: asSession(cookie) })).status).toBe(403);
    const membership = await membershipOf(t.tenant.id, 'two-homes@members.test');
    const res = await call(removeMember, { key: t.adminKey, params: { id: membership.id } });
    expect(res.body.sessions_ended).toBe(0);
    const now = await call(listMembers, { headers: asSession(cookie) });
    expect(now.status).toBe(200);
    expect(now.body.members.map((m: { email: string }) => m.email)).toContain('admin@other.test');
  });
});

describe('membership evidence', () => {
  it("records every change in the tenant's chain, which still verifies", async () => {
    const records = await membershipRecords(t.tenant.id);
    const actions = new Set(records.map((r) => r.action));
    expect([...actions].sort()).toEqual(['invitation_revoked', 'member_invited', 'member_removed', 'member_role_changed']);
    expect(records.every((r) => r.tool === 'toolgate.members')).toBe(true);
    const roleChange = records.find((r) => r.action === 'member_role_changed' && r.details.new_role === 'admin');
    expect(roleChange).toMatchObject({
      actorUserId: adminUserId,
      apiKeyId: null,
      details: {
        email: 'rising@members.test',
        old_role: 'viewer',
        new_role: 'admin',
        user_id: expect.any(String),
        membership_id: expect.any(String),
      },
    });
    const keyChange = records.find((r) => r.action === 'member_role_changed' && r.details.new_role === 'approver');
    expect(keyChange?.apiKeyId).toEqual(expect.any(String));
    expect(keyChange?.actorUserId).toBeNull();
    expect(records.find((r) => r.action === 'member_removed' && r.details.email === 'leaving@members.test')?.details).toMatchObject({
      role: 'admin',
    });
    expect(records.find((r) => r.action === 'invitation_revoked')?.details).toMatchObject({
      email: 'revoke-me@members.test',
      role: 'viewer',
    });
    const chain = await verifyEvidenceChain({ tenantId: t.tenant.id });
    expect(chain).toMatchObject({ valid: true, firstBroken: null });
    expect(chain.records).toBe(records.length);
    // None of it shows up as a call.
    expect(await db().violation.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });
});
