import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { addMember } from '@/lib/tenants/add-member';
import { acceptInvitation, acceptInvitationsForEmail, hasPendingInvitation } from '@/lib/members/accept-invitation';
import { findInvitationByToken } from '@/lib/members/find-invitation';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { AppError } from '@/lib/errors';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { signIn } from './member-sessions';
import { acceptInvitationHandler as accept } from '@/lib/api/handlers/invitations';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let n = 0;

beforeAll(async () => {
  t = await createTestTenant({ slug: 'invite-a' });
});

async function invited(role = 'approver', email = `person-${++n}@invite.test`, key = t.adminKey) {
  const res = await call(invite, { key, body: { email, role } });
  expect(res.status).toBe(201);
  const token = new URL(res.body.invitation_url).pathname.split('/').pop() as string;
  return { id: res.body.invitation.id as string, email, token };
}

function expectInvalid(res: { status: number; body: { error: { code: string; details: { reason: string } } } }, reason: string) {
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('invitation_invalid');
  expect(res.body.error.details.reason).toBe(reason);
}

describe('accepting with a password', () => {
  it('creates the user and credential account, joins with the invited role, and signs in', async () => {
    const inv = await invited('approver');
    const res = await call(accept, { body: { token: inv.token, password: 'a-fine-password', name: 'Ada Approver' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ email: inv.email, role: 'approver', tenant: { id: t.tenant.id, slug: 'invite-a', name: 'invite-a' } });
    const user = await db().user.findUniqueOrThrow({ where: { email: inv.email }, include: { accounts: true, memberships: true } });
    expect(user).toMatchObject({ name: 'Ada Approver', emailVerified: true });
    expect(user.accounts).toHaveLength(1);
    expect(user.accounts[0]).toMatchObject({ providerId: 'credential', accountId: user.id });
    expect(user.accounts[0]?.password).not.toContain('a-fine-password');
    expect(user.memberships.map((m) => [m.tenantId, m.role])).toEqual([[t.tenant.id, 'approver']]);
    expect((await signIn(inv.email, 'a-fine-password')).status).toBe(200);
    const row = await db().invitation.findUniqueOrThrow({ where: { id: inv.id } });
    expect(row.acceptedUserId).toBe(user.id);
    expect(row.acceptedAt).not.toBeNull();

    const record = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: t.tenant.id }, kind: 'membership', decision: 'invitation_accepted' },
      orderBy: { seq: 'desc' },
    });
    expect(record.actorUserId).toBe(user.id);
    expect(JSON.parse(record.details ?? '{}')).toEqual({
      invitation_id: inv.id,
      email: inv.email,
      user_id: user.id,
      role: 'approver',
      invited_role: 'approver',
      new_account: true,
    });
  });

  it('works once: a second use of the link is refused and changes nothing', async () => {
    const inv = await invited('viewer');
    expect((await call(accept, { body: { token: inv.token, password: 'first-password' } })).status).toBe(201);
    expectInvalid(await call(accept, { body: { token: inv.token, password: 'second-password' } }), 'used');
    expect((await signIn(inv.email, 'first-password')).status).toBe(200);
    expect((await signIn(inv.email, 'second-password')).status).toBe(401);
  });

  it('two submits racing for one link: exactly one account, the other told the link is used', async () => {
    const inv = await invited('viewer');
    const results = await Promise.all([
      call(accept, { body: { token: inv.token, password: 'racer-one-pw' } }),
      call(accept, { body: { token: inv.token, password: 'racer-two-pw' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
    expectInvalid(results.find((r) => r.status === 404) as never, 'used');
    expect(await db().user.count({ where: { email: inv.email } })).toBe(1);
    expect(
      await db().evidence.count({
        where: { tenant: { tenantId: t.tenant.id }, decision: 'invitation_accepted', details: { contains: inv.id } },
      }),
    ).toBe(1);
  });

  it('refuses expired, revoked, unknown and malformed links', async () => {
    const expired = await invited('viewer');
    await db().invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectInvalid(await call(accept, { body: { token: expired.token, password: 'a-fine-password' } }), 'expired');

    const replaced = await invited('viewer');
    await invited('author', replaced.email);
    expectInvalid(await call(accept, { body: { token: replaced.token, password: 'a-fine-password' } }), 'revoked');

    expectInvalid(await call(accept, { body: { token: randomBytes(32).toString('base64url'), password: 'a-fine-password' } }), 'unknown');
    expectInvalid(await call(accept, { body: { token: 'not a token', password: 'a-fine-password' } }), 'unknown');
    expect(await db().user.count({ where: { email: { in: [expired.email, replaced.email] } } })).toBe(0);
  });

  it('bounds the password and refuses unknown fields', async () => {
    const inv = await invited('viewer');
    for (const body of [
      { token: inv.token, password: 'short' },
      { token: inv.token, password: 'x'.repeat(129) },
      { token: inv.token, password: 'a-fine-password', role: 'admin' },
      { token: 'x'.repeat(201), password: 'a-fine-password' },
    ]) {
      const res = await call(accept, { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    }
    expect((await findInvitationByToken(inv.token))?.state).toBe('pending');
  });

  it("refuses a commonly used password, in any case, and the invitee's own address, keeping the link usable", async () => {
    const inv = await invited('viewer');
    const refusals: [string, string][] = [
      ['password', 'The password is one of the most commonly used passwords; choose a longer or less predictable one.'],
      ['QWERTYUIOP', 'The password is one of the most commonly used passwords; choose a longer or less predictable one.'],
      ['p@ssw0rd', 'The password is one of the most commonly used passwords; choose a longer or less predictable one.'],
      [inv.email.toUpperCase(), 'The password must not be your email address.'],
      [inv.email.split('@')[0] as string, 'The password must not be your email address.'],
    ];
    for (const [password, message] of refusals) {
      const res = await call(accept, { body: { token: inv.token, password } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'bad_request', message, details: { field: 'password' } });
    }
    expect((await findInvitationByToken(inv.token))?.state).toBe('pending');
    expect(await db().user.count({ where: { email: inv.email } })).toBe(0);
    expect((await call(accept, { body: { token: inv.token, password: 'a-fine-password' } })).status).toBe(201);
  });

  it('sends someone with an account to sign in (409), then accepts for them signed in, and only for their own email', async () => {
    const other = await createTestTenant({ slug: 'invite-home' });
    await addMember({ tenantId: other.tenant.id, email: 'has-account@invite.test', password: 'existing-password', role: 'author' });
    const inv = await invited('approver', 'has-account@invite.test');
    const res = await call(accept, { body: { token: inv.token, password: 'would-overwrite' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', details: { reason: 'account_exists' } });
    expect((await signIn('has-account@invite.test', 'would-overwrite')).status).toBe(401);
    expect((await findInvitationByToken(inv.token))?.state).toBe('pending');

    const stranger = await addMember({
      tenantId: other.tenant.id,
      email: 'stranger@invite.test',
      password: 'stranger-password',
      role: 'viewer',
    });
    const mismatch = await acceptInvitation({ token: inv.token, userId: stranger.user.id }).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(AppError);
    expect(mismatch).toMatchObject({ code: 'forbidden', details: { reason: 'email_mismatch' } });

    const owner = await db().user.findUniqueOrThrow({ where: { email: 'has-account@invite.test' } });
    expect(await acceptInvitation({ token: inv.token, userId: owner.id })).toEqual({ tenantId: t.tenant.id, role: 'approver' });
    expect((await db().membership.findMany({ where: { userId: owner.id }, orderBy: { createdAt: 'asc' } })).map((m) => m.role)).toEqual([
      'author',
      'approver',
    ]);
    await expect(acceptInvitation({ token: inv.token, userId: owner.id })).rejects.toMatchObject({
      code: 'invitation_invalid',
      details: { reason: 'used' },
    });
  });
});

describe('accepting for an email (sign-in with SSO)', () => {
  it('joins every tenant with a pending invitation for that email, mapping roles, and skips the rest', async () => {
    const second = await createTestTenant({ slug: 'invite-sso' });
    const email = 'sso.person@invite.test';
    expect(await hasPendingInvitation(email)).toBe(false);
    await invited('viewer', email);
    await invited('author', email, second.adminKey);
    const stale = await createTestTenant({ slug: 'invite-stale' });
    const expired = await invited('admin', email, stale.adminKey);
    await db().invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await hasPendingInvitation(' SSO.Person@invite.test ')).toBe(true);

    const user = await db().user.create({ data: { email, name: 'SSO Person', emailVerified: true } });
    const joined = await acceptInvitationsForEmail({
      userId: user.id,
      email: 'SSO.Person@Invite.test',
      roleFor: (invitedRole) => (invitedRole === 'viewer' ? 'approver' : invitedRole),
    });
    expect(joined.sort((a, b) => a.tenantId.localeCompare(b.tenantId))).toEqual(
      [
        { tenantId: t.tenant.id, role: 'approver' },
        { tenantId: second.tenant.id, role: 'author' },
      ].sort((a, b) => a.tenantId.localeCompare(b.tenantId)),
    );
    expect(await db().membership.count({ where: { userId: user.id, tenantId: stale.tenant.id } })).toBe(0);
    expect(await hasPendingInvitation(email)).toBe(false);
    expect(await acceptInvitationsForEmail({ userId: user.id, email })).toEqual([]);

    const record = await db().evidence.findFirstOrThrow({
      where: { tenant: { tenantId: t.tenant.id }, decision: 'invitation_accepted', actorUserId: user.id },
    });
    expect(JSON.parse(record.details ?? '{}')).toMatchObject({ email, role: 'approver', invited_role: 'viewer', new_account: false });
    for (const tenantId of [t.tenant.id, second.tenant.id]) expect((await verifyEvidenceChain({ tenantId })).valid).toBe(true);
  });
});
