// PostgreSQL only: two data-plane processes deciding calls of one tenant and one user at the
// same time. Limits and history conditions hold across both, exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { startDataPlane, type DataPlaneProcess } from '@/lib/testing/data-plane-process';
import {
  counted,
  createHistoryTenant,
  preAt,
  publishPolicyDocument,
  tally,
  type HistoryTenant,
  type ToolCall,
} from '@/lib/testing/history-fixtures';

let t: HistoryTenant;
const instances: DataPlaneProcess[] = [];

beforeAll(async () => {
  t = await createHistoryTenant();
  await publishPolicyDocument(t, {
    id: 'shared-limits',
    version: '1.0.0',
    limits: [
      { id: 'seven-transfers', tools: ['wallet.transfer'], per: 'user', window: '1h', max_calls: 7 },
      { id: 'view-budget', tools: ['wallet.view'], per: 'tenant', window: '1d', max_sum: { path: 'amount', value: 100 } },
    ],
    rules: [
      {
        id: 'three-exports',
        tools: ['accounts.export'],
        when: "history.count('accounts.export', 'session', '1h') >= 3",
        decision: 'deny',
      },
      { id: 'generous', tools: ['accounts.delete'], when: "history.count('accounts.delete', 'tenant', '1h') >= 1000", decision: 'deny' },
    ],
  });
  const url = process.env.DATABASE_URL as string;
  instances.push(...(await Promise.all([startDataPlane({ databaseUrl: url }), startDataPlane({ databaseUrl: url })])));
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
});

describe('two data-plane instances over one PostgreSQL', () => {
  it(
    'allow exactly the limit across both, with every call recorded, the counters at the limit and the chain intact',
    { timeout: 90_000 },
    async () => {
      const urls = instances.map((i) => i.url);
      // Warm both (contracts, policies, connections) on a tool nothing limits here, so the calls below race.
      for (const url of urls) expect((await preAt(url, t.agentKey, { tool: 'accounts.delete' })).status).toBe(200);

      const calls: { kind: 'transfer' | 'view' | 'export'; c: ToolCall }[] = [
        ...Array.from({ length: 24 }, () => ({ kind: 'transfer' as const, c: { tool: 'wallet.transfer', user: 'u1' } })),
        ...Array.from({ length: 16 }, (_, i) => ({
          kind: 'view' as const,
          c: { tool: 'wallet.view', user: `u${i}`, args: { account_id: 'acc-1', amount: 15 } },
        })),
        ...Array.from({ length: 12 }, () => ({ kind: 'export' as const, c: { tool: 'accounts.export', session: 's1' } })),
      ];
      // Interleaved, and each kind spread over both instances.
      const order = calls.map((call, i) => ({ call, i })).sort((a, b) => (a.i % 3) - (b.i % 3) || a.i - b.i);
      const answers = await Promise.all(
        order.map(({ call }, n) =>
          preAt(urls[n % 2] as string, n % 4 === 3 ? t.secondKey : t.agentKey, call.c).then((res) => ({ call, res })),
        ),
      );
      expect(answers.map((a) => a.res.status)).toEqual(Array(answers.length).fill(200));
      const decisions = (kind: string) => tally(answers.filter((a) => a.call.kind === kind).map((a) => a.res.body.decision));
      expect(decisions('transfer')).toEqual({ allow: 7, deny: 17 });
      expect(decisions('view')).toEqual({ allow: 6, deny: 10 });
      expect(decisions('export')).toEqual({ allow: 3, deny: 9 });
      const codes = answers.filter((a) => a.res.body.decision === 'deny').map((a) => `${a.call.kind}:${a.res.body.errors[0].code}`);
      expect(tally(codes)).toEqual({ 'transfer:AXAG_RATE_LIMITED': 17, 'view:AXAG_BUDGET_EXCEEDED': 10, 'export:AXAG_POLICY_DENIED': 9 });
      // 7 transfers + 6 views + 3 exports (and the two warm-up deletes) counted, the views adding 15 each.
      expect(await counted(t.tenant.id)).toMatchObject({ count: 18, total: 90 });
      expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'pre' } })).toBe(calls.length + 2);
      expect(await verifyEvidenceChain({ tenantId: t.tenant.id })).toMatchObject({ valid: true, records: calls.length + 2 });

      // Both instances now refuse from the shared counts, and another user's transfers are their own.
      for (const url of urls) {
        const refused = await preAt(url, t.agentKey, { tool: 'wallet.transfer', user: 'u1' });
        expect(refused.body.errors[0].details).toMatchObject({ used: 7, remaining: 0 });
        expect((await preAt(url, t.agentKey, { tool: 'wallet.transfer', user: `other-${url}` })).body.decision).toBe('allow');
      }
    },
  );

  it('allow a burst well under a history cap whole across both: no call runs out of attempts', { timeout: 90_000 }, async () => {
    const urls = instances.map((i) => i.url);
    const before = (await counted(t.tenant.id)).count;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => preAt(urls[n % 2] as string, t.agentKey, { tool: 'accounts.delete' })),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.error?.details?.reason)).toEqual([]);
    expect(tally(answers.map((a) => a.body.decision))).toEqual({ allow: 40 });
    expect((await counted(t.tenant.id)).count).toBe(before + 40);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
  });
});
