// A real data-plane process (on SQLite its evidence goes through the writer thread): concurrent
// calls against a limit, a kill -9 part-way through an allowance, and a new process on the same
// database that finds exactly what is left; a refused write through it counts nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { loadValidatePre, startDataPlane, type DataPlaneProcess } from '@/lib/testing/data-plane-process';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';
import {
  counted,
  createHistoryTenant,
  preAt,
  preBody,
  publishPolicyDocument,
  tally,
  type HistoryTenant,
  type ToolCall,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;
let server: DataPlaneProcess | undefined;

beforeAll(async () => {
  t = await createHistoryTenant();
  await publishPolicyDocument(t, {
    id: 'durable',
    version: '1.0.0',
    limits: [
      { id: 'five-transfers', tools: ['wallet.transfer'], per: 'user', window: '1h', max_calls: 5 },
      { id: 'view-budget', tools: ['wallet.view'], per: 'user', window: '1d', max_sum: { path: 'amount', value: 100 } },
    ],
  });
  server = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const send = (c: ToolCall) => preAt((server as DataPlaneProcess).url, t.agentKey, c);
const transfers = (user: string, n: number) => Promise.all(Array.from({ length: n }, () => send({ tool: 'wallet.transfer', user })));
const view = (user: string, amount: number) => send({ tool: 'wallet.view', user, args: { account_id: 'acc-1', amount } });
const decisions = (answers: { status: number; body: { decision?: string } }[]) => {
  expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(200));
  return tally(answers.map((a) => a.body.decision as string));
};

describe('limits on a data-plane process', () => {
  it('twelve concurrent calls against a limit of five: exactly five allowed', { timeout: 60_000 }, async () => {
    expect(decisions(await transfers('busy', 12))).toEqual({ allow: 5, deny: 7 });
    expect((await counted(t.tenant.id)).count).toBe(5);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('survive a kill -9: a new process on the same database allows exactly what was left', { timeout: 120_000 }, async () => {
    expect(decisions(await transfers('u1', 3))).toEqual({ allow: 3 });
    expect((await view('u1', 60)).body.decision).toBe('allow');
    await (server as DataPlaneProcess).kill9();

    server = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string });
    expect(decisions(await transfers('u1', 8))).toEqual({ allow: 2, deny: 6 });
    const over = await view('u1', 50);
    expect(over.body.errors[0].code).toBe('AXAG_BUDGET_EXCEEDED');
    expect(over.body.errors[0].details).toMatchObject({ used: 60, remaining: 40 });
    expect((await view('u1', 40)).body.decision).toBe('allow');
    // What the first process counted for another user is still there too.
    expect(decisions(await transfers('busy', 2))).toEqual({ deny: 2 });
    expect(await counted(t.tenant.id)).toMatchObject({ count: 5 + 5 + 2, total: 100 });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('a write the database refuses is answered 503 and counts nothing', { timeout: 60_000 }, async () => {
    await refuseInserts(
      'Evidence',
      `NEW."tenantKey" = (SELECT "key" FROM "TenantKey" WHERE "tenantId" = '${t.tenant.id}') AND NEW."callId" LIKE 'poison%'`,
    );
    try {
      const before = await counted(t.tenant.id);
      const refused = await send({ tool: 'wallet.transfer', user: 'u9', callId: 'poison-1' });
      expect(refused.status).toBe(503);
      expect(refused.body.error.details.reason).toBe('evidence_unavailable');
      expect(await counted(t.tenant.id)).toEqual(before);
    } finally {
      await allowInserts('Evidence');
    }
    // The writer goes on: u9 has the whole allowance.
    expect(decisions(await transfers('u9', 6))).toEqual({ allow: 5, deny: 1 });
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });

  it('after a kill -9 under load, the counters hold exactly the allowed calls that were recorded', { timeout: 120_000 }, async () => {
    const running = server as DataPlaneProcess;
    const load = loadValidatePre({
      urls: [running.url],
      key: t.agentKey,
      body: (i) => preBody({ tool: 'wallet.transfer', user: `crash-${i % 40}`, callId: `crash-${i}` }),
      workers: 12,
      durationMs: 4000,
      stopOnError: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await running.kill9();
    const result = await load;
    expect(result.answered.size).toBeGreaterThan(20);
    server = await startDataPlane({ databaseUrl: process.env.DATABASE_URL as string });
    // Every allowed call is counted once in one series; nothing else is counted.
    const allowed = await db().evidence.count({
      where: { tenant: { tenantId: t.tenant.id }, kind: 'pre', decision: 'allow', tool: { startsWith: 'wallet.' } },
    });
    expect((await counted(t.tenant.id)).count).toBe(allowed);
    const crashAllowed = await db().evidence.count({
      where: { tenant: { tenantId: t.tenant.id }, decision: 'allow', callId: { startsWith: 'crash-' } },
    });
    expect(crashAllowed).toBeLessThanOrEqual(40 * 5);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});
