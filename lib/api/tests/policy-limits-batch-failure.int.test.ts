// When the evidence commit fails, no call is decided and nothing is counted: the database is
// made to refuse the write (a trigger this test installs), callers get 503, the counters do not
// move, and once the write goes through again counting resumes exactly where it was.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { parseDatabaseUrl } from '@/lib/db/database-url';
import { evidenceQueueDepth } from '@/lib/evidence/evidence-observers';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { call } from '@/lib/testing/api-client';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';
import { getApprovalHandler as getApproval, decideApprovalHandler as decideApproval } from '@/lib/api/handlers/approvals';
import {
  counted,
  createHistoryTenant,
  pre,
  publishPolicyDocument,
  tally,
  type HistoryTenant,
  type ToolCall,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;

beforeEach(async () => {
  t = await createHistoryTenant();
  await publishPolicyDocument(t, {
    id: 'limits',
    version: '1.0.0',
    limits: [
      { id: 'four', tools: ['wallet.transfer'], per: 'tenant', window: '1h', max_calls: 4 },
      { id: 'budget', tools: ['wallet.transfer'], per: 'tenant', window: '1h', max_sum: { path: 'amount', value: 1000 } },
      {
        id: 'one-then-ask',
        tools: ['wallet.view'],
        per: 'user',
        window: '1h',
        max_calls: 1,
        when_exceeded: 'require_approval',
        roles: ['approver'],
      },
    ],
  });
});

afterEach(async () => {
  await allowWrites();
});

/** Makes the database refuse evidence rows of this tenant whose call id starts with `prefix` ('' for all). */
const refuseWrites = (prefix: string) =>
  refuseInserts(
    'Evidence',
    `NEW."tenantKey" = (SELECT "key" FROM "TenantKey" WHERE "tenantId" = '${t.tenant.id}') AND NEW."callId" LIKE '${prefix}%'`,
  );

/**
 * Holds the database's write lock (SQLite) or the tenant's seq allocator (PostgreSQL: a held lane
 * would not stop a commit, it takes another) until released.
 */
async function holdWrites(): Promise<() => Promise<void>> {
  const target = parseDatabaseUrl(process.env.DATABASE_URL);
  if (target.provider === 'postgresql') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`INSERT INTO "EvidenceSequence" ("tenantId", "seq", "createdAt") VALUES ($1, 0, now()) ON CONFLICT DO NOTHING`, [
      t.tenant.id,
    ]);
    await client.query(`SELECT 1 FROM "EvidenceSequence" WHERE "tenantId" = $1 FOR UPDATE`, [t.tenant.id]);
    return async () => {
      await client.query('COMMIT');
      await client.end();
    };
  }
  const connection = new Database(target.file as string);
  connection.prepare('BEGIN IMMEDIATE').run();
  return async () => {
    connection.prepare('COMMIT').run();
    connection.close();
  };
}

const allowWrites = () => allowInserts('Evidence');

const transfer = (callId: string, amount = 100, extra?: ToolCall['extra']) =>
  pre(t, { user: 'u1', args: { account_id: 'acc-1', amount }, callId, extra });
// Each allowed transfer is counted in two series (the call limit's and the budget's).
const recorded = () => db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'pre' } });

describe('a failed evidence commit', () => {
  it('answers 503 to every caller of the batch and counts nothing; afterwards the whole allowance is there', async () => {
    await refuseWrites('');
    const failed = await Promise.all(Array.from({ length: 6 }, (_, i) => transfer(`c${i}`)));
    for (const res of failed) {
      expect(res.status).toBe(503);
      expect(res.body.error.details.reason).toBe('evidence_unavailable');
      expect(res.body.decision).toBeUndefined();
    }
    expect(await counted(t.tenant.id)).toEqual({ count: 0, total: 0, rows: 0 });
    expect(await recorded()).toBe(0);

    await allowWrites();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => transfer(`c${i}`)));
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 4, deny: 2 });
    expect(await counted(t.tenant.id)).toMatchObject({ count: 2 * 4, total: 400 });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('one refused record fails its whole batch: those callers get 503 and are not counted; retried, the limit is exact', async () => {
    expect((await transfer('first')).body.decision).toBe('allow');
    await refuseWrites('poison');
    // Writes held from outside: one call's batch waits on them, and every call made meanwhile
    // queues behind it, so the poisoned record and five others are committed as one batch.
    const release = await holdWrites();
    const before = transfer('before');
    await expect.poll(evidenceQueueDepth, { timeout: 10_000, interval: 20 }).toBe(1);
    const batch = Promise.all([transfer('poison'), ...Array.from({ length: 5 }, (_, i) => transfer(`mixed-${i}`))]);
    await expect.poll(evidenceQueueDepth, { timeout: 10_000, interval: 20 }).toBe(7);
    await release();
    expect((await before).body.decision).toBe('allow');
    const answers = await batch;
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.body.error.details.reason).toBe('evidence_unavailable');
    }
    // Exactly what was answered is recorded and counted, nothing of what was refused.
    expect(await recorded()).toBe(2);
    expect(await counted(t.tenant.id)).toMatchObject({ count: 2 * 2, total: 200 });

    await allowWrites();
    const retried = await Promise.all([transfer('poison'), ...Array.from({ length: 5 }, (_, i) => transfer(`mixed-${i}`))]);
    expect(tally(retried.map((a) => a.body.decision))).toEqual({ allow: 2, deny: 4 });
    expect(await counted(t.tenant.id)).toMatchObject({ count: 2 * 4, total: 400 });
    expect(await recorded()).toBe(8);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('with side effects: a held call leaves no approval behind, and a failed redemption keeps its token and counts once when retried', async () => {
    const view = (callId: string, extra?: ToolCall['extra']) => pre(t, { tool: 'wallet.view', user: 'u1', callId, extra });
    expect((await view('v1')).body.decision).toBe('allow');
    await refuseWrites('v2');
    const heldFailed = await view('v2');
    expect(heldFailed.status).toBe(503);
    expect(await db().approval.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    await allowWrites();

    const held = await view('v2');
    expect(held.body.decision).toBe('require_approval');
    const id: string = held.body.approval.id;
    expect((await call(decideApproval, { key: t.adminKey, params: { id }, body: { decision: 'approve' } })).status).toBe(200);
    const token: string = (await call(getApproval, { key: t.agentKey, params: { id } })).body.approval_token;

    await refuseWrites('v2');
    const redeemFailed = await view('v2', { approval_token: token });
    expect(redeemFailed.status).toBe(503);
    expect((await counted(t.tenant.id)).count).toBe(1);
    expect((await call(getApproval, { key: t.agentKey, params: { id } })).body.token_used).toBe(false);
    await allowWrites();

    expect((await view('v2', { approval_token: token })).body.decision).toBe('allow');
    expect((await counted(t.tenant.id)).count).toBe(2);
    expect((await call(getApproval, { key: t.agentKey, params: { id } })).body.token_used).toBe(true);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});
