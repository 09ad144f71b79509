import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors';
import { createApiKey } from '@/lib/auth/api-keys';
import { refundPaymentContract } from '@/lib/contracts/examples';
import { applyApprovalDecision, type DecisionPlan } from '@/lib/approvals/apply-approval-decision';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { decideApprovalHandler as decide } from '@/lib/api/handlers/approvals';

// PostgreSQL only: decisions racing in separate transactions on separate connections, held at
// the same point by a row lock taken from outside.
let t: Awaited<ReturnType<typeof createTestTenant>>;
let secondAdminKey: string;
let n = 0;

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, refundPaymentContract);
  secondAdminKey = (await createApiKey({ tenantId: t.tenant.id, name: 'second admin', scopes: ['admin'] })).key;
});

async function pendingApproval(approversRequired = 1) {
  const res = await call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'payments.refund',
      call_id: `c-${++n}`,
      arguments: { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 100 + n, reason: 'duplicate' },
      context: { tenant_id: 'acme', roles: ['support'], state: { payment_status: 'captured' } },
    },
  });
  const id: string = res.body.approval.id;
  if (approversRequired !== 1) await db().approval.update({ where: { id }, data: { approversRequired } });
  return db().approval.findUniqueOrThrow({ where: { id } });
}

function plan(
  row: Awaited<ReturnType<typeof pendingApproval>>,
  approverId: string,
  action: DecisionPlan['action'],
  completes: boolean,
): DecisionPlan {
  return {
    tenantId: t.tenant.id,
    approvalId: row.id,
    action,
    approverId,
    comment: null,
    now: new Date(),
    seen: { argsHash: row.argsHash, escalationLevel: row.escalationLevel, approves: 0 },
    completes,
    edit: null,
    escalateTo: null,
    tokenTtlMs: 60_000,
  };
}

/** Runs the decisions in their own transactions, all started while `id`'s row is locked from outside. */
async function raceOnLockedRow(id: string, decisions: DecisionPlan[]) {
  const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await blocker.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM "Approval" WHERE id = $1 FOR UPDATE', [id]);
    const racing = decisions.map((p) => db().$transaction((tx) => applyApprovalDecision(tx, p)));
    racing.forEach((p) => p.catch(() => undefined));
    // Both transactions are now waiting on the row lock: they really run at the same time.
    for (;;) {
      const { rows } = await blocker.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].waiting >= decisions.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await blocker.query('COMMIT');
    return await Promise.allSettled(racing);
  } finally {
    await blocker.end();
  }
}

describe('concurrent decisions on PostgreSQL', () => {
  it('two approvers deciding at once over HTTP: exactly one 200, the other 409', async () => {
    for (let i = 0; i < 5; i++) {
      const row = await pendingApproval();
      const results = await Promise.all([
        call(decide, { key: t.adminKey, params: { id: row.id }, body: { decision: 'approve' } }),
        call(decide, { key: secondAdminKey, params: { id: row.id }, body: { decision: 'deny', comment: 'no' } }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)?.body.status;
      expect((await db().approval.findUniqueOrThrow({ where: { id: row.id } })).status).toBe(winner);
      expect(
        await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, traceId: row.traceId, kind: 'approval_decision' } }),
      ).toBe(1);
    }
  });

  it('two transactions released at the same instant: exactly one decision, the other a conflict', async () => {
    const row = await pendingApproval();
    const settled = await raceOnLockedRow(row.id, [plan(row, 'api_key:a', 'approve', true), plan(row, 'api_key:b', 'deny', false)]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect(loser.reason).toBeInstanceOf(AppError);
    expect((loser.reason as AppError).status).toBe(409);
    const after = await db().approval.findUniqueOrThrow({ where: { id: row.id }, include: { votes: true } });
    expect(['approved', 'denied']).toContain(after.status);
    expect(after.votes).toHaveLength(1);
  });

  it('two distinct approvers voting at once on a 2-approver approval cannot both miss each other', async () => {
    const row = await pendingApproval(2);
    // Each believes it casts the first of two votes.
    const settled = await raceOnLockedRow(row.id, [plan(row, 'user:a', 'approve', false), plan(row, 'user:b', 'approve', false)]);
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await db().approvalVote.count({ where: { approvalId: row.id } })).toBe(1);
    // The one refused decides again on what is now there, and completes the approval.
    const voted = (await db().approvalVote.findFirstOrThrow({ where: { approvalId: row.id } })).approverId;
    const again = plan(row, voted === 'user:a' ? 'user:b' : 'user:a', 'approve', true);
    again.seen.approves = 1;
    await db().$transaction((tx) => applyApprovalDecision(tx, again));
    expect((await db().approval.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('approved');
  });
});
