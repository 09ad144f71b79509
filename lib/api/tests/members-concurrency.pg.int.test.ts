import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { db, type Tx } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { addMember } from '@/lib/tenants/add-member';
import { applyRoleChange, type RoleChange } from '@/lib/members/change-member-role';
import { applyRemoval } from '@/lib/members/remove-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant } from '@/lib/testing/fixtures';
import { asSession, signIn } from './member-sessions';
import { changeMemberRoleHandler as changeRole } from '@/lib/api/handlers/members';

// PostgreSQL only: membership changes racing in separate transactions on separate connections,
// all held at the tenant lock by a transaction from outside and released at the same instant.
let n = 0;

async function tenantWithTwoAdmins() {
  const t = await createTestTenant({ slug: `race-${++n}` });
  const a = await addMember({ tenantId: t.tenant.id, email: `a${n}@race.test`, password: 'admin-a-password', role: 'admin' });
  const b = await addMember({ tenantId: t.tenant.id, email: `b${n}@race.test`, password: 'admin-b-password', role: 'admin' });
  return {
    t,
    a: { userId: a.user.id, membershipId: a.membership.id, email: a.user.email },
    b: { userId: b.user.id, membershipId: b.membership.id, email: b.user.email },
  };
}

async function raceOnLockedTenant<T>(tenantId: string, changes: ((tx: Tx) => Promise<T>)[]) {
  const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  // A second connection watches: inside the blocker's transaction pg_stat_activity is a snapshot.
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await Promise.all([blocker.connect(), watcher.connect()]);
  try {
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM "Tenant" WHERE id = $1 FOR UPDATE', [tenantId]);
    const racing = changes.map((change) => db().$transaction((tx) => change(tx)));
    let settledEarly = false;
    racing.forEach((p) =>
      p.then(
        () => (settledEarly = true),
        () => (settledEarly = true),
      ),
    );
    // Every transaction is now waiting on the tenant's lock: they really run at the same time.
    for (;;) {
      const { rows } = await watcher.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].waiting >= changes.length) break;
      if (settledEarly) throw new Error('a change finished while the tenant was locked: the lock does not serialise it');
      await new Promise((r) => setTimeout(r, 20));
    }
    await blocker.query('COMMIT');
    return await Promise.allSettled(racing);
  } finally {
    await Promise.all([blocker.end(), watcher.end()]);
  }
}

async function admins(tenantId: string) {
  return db().membership.count({ where: { tenantId, role: 'admin' } });
}

function rejection(settled: PromiseSettledResult<unknown>[]): AppError {
  const loser = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
  expect(loser.reason).toBeInstanceOf(AppError);
  return loser.reason as AppError;
}

describe('the last admin under concurrency (PostgreSQL)', () => {
  it('two admins stepping down at the same instant: one succeeds, the other is the last admin (409)', async () => {
    const { t, a, b } = await tenantWithTwoAdmins();
    const stepDown = (who: typeof a): RoleChange => ({
      tenantId: t.tenant.id,
      membershipId: who.membershipId,
      from: 'admin',
      to: 'viewer',
      actor: { kind: 'user', userId: who.userId },
    });
    const settled = await raceOnLockedTenant(t.tenant.id, [
      (tx) => applyRoleChange(tx, stepDown(a)),
      (tx) => applyRoleChange(tx, stepDown(b)),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(rejection(settled)).toMatchObject({ code: 'last_admin', status: 409 });
    expect(await admins(t.tenant.id)).toBe(1);
  });

  it('two admins demoting each other at the same instant: the second no longer acts as admin (403)', async () => {
    const { t, a, b } = await tenantWithTwoAdmins();
    const settled = await raceOnLockedTenant(t.tenant.id, [
      (tx) =>
        applyRoleChange(tx, {
          tenantId: t.tenant.id,
          membershipId: b.membershipId,
          from: 'admin',
          to: 'approver',
          actor: { kind: 'user', userId: a.userId },
        }),
      (tx) =>
        applyRoleChange(tx, {
          tenantId: t.tenant.id,
          membershipId: a.membershipId,
          from: 'admin',
          to: 'approver',
          actor: { kind: 'user', userId: b.userId },
        }),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(rejection(settled)).toMatchObject({ code: 'forbidden', status: 403 });
    expect(await admins(t.tenant.id)).toBe(1);
  });

  it('two API-key removals of the two admins at the same instant: one admin remains', async () => {
    const { t, a, b } = await tenantWithTwoAdmins();
    const key = { kind: 'api_key', apiKeyId: 'k' } as const;
    const settled = await raceOnLockedTenant(t.tenant.id, [
      (tx) => applyRemoval(tx, { tenantId: t.tenant.id, membershipId: a.membershipId, role: 'admin', actor: key }),
      (tx) => applyRemoval(tx, { tenantId: t.tenant.id, membershipId: b.membershipId, role: 'admin', actor: key }),
    ]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(rejection(settled)).toMatchObject({ code: 'last_admin' });
    expect(await admins(t.tenant.id)).toBe(1);
  });

  it('over HTTP: two admins stepping down at once, five times, never leave the tenant without an admin', async () => {
    for (let i = 0; i < 5; i++) {
      const { t, a, b } = await tenantWithTwoAdmins();
      const cookies = [(await signIn(a.email, 'admin-a-password')).cookie, (await signIn(b.email, 'admin-b-password')).cookie];
      const results = await Promise.all([
        call(changeRole, { headers: asSession(cookies[0] as string), params: { id: a.membershipId }, body: { role: 'viewer' } }),
        call(changeRole, { headers: asSession(cookies[1] as string), params: { id: b.membershipId }, body: { role: 'viewer' } }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)?.body.error.code).toBe('last_admin');
      expect(await admins(t.tenant.id)).toBe(1);
      expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, decision: 'member_role_changed' } })).toBe(1);
    }
  });
});
