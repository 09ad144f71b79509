import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let authorKey: string;

beforeEach(async () => {
  t = await createTestTenant({ storeRawArguments: false });
  authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

async function publish(document: Record<string, unknown>) {
  const saved = await call(savePolicy, { key: authorKey, body: document });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  const published = await call(publishPolicy, {
    key: authorKey,
    params: { id: String(document.id), version: String(document.version) },
    body: { mode: 'enforce' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

const lookup = (callId: string, user = 'u1', key = t.agentKey) =>
  call(validatePre, {
    key,
    body: {
      tool: 'orders.lookup',
      call_id: callId,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme', user_id: user },
    },
  });

describe('policy limits on validate/pre', () => {
  it('ten concurrent calls against a limit of five: exactly five allowed, five AXAG_RATE_LIMITED, chain intact', async () => {
    await publish({
      id: 'lookups',
      version: '1.0.0',
      limits: [{ id: 'five-per-user', tools: ['orders.lookup'], per: 'user', window: '1h', max_calls: 5 }],
    });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => lookup(`c${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const decisions = answers.map((a) => a.body.decision).sort();
    expect(decisions).toEqual([...Array(5).fill('allow'), ...Array(5).fill('deny')]);
    for (const denied of answers.filter((a) => a.body.decision === 'deny')) {
      const issue = denied.body.errors[0];
      expect(issue.code).toBe('AXAG_RATE_LIMITED');
      expect(issue.details).toMatchObject({ limit_id: 'five-per-user', max: 5, used: 5, remaining: 0 });
      expect(issue.details.retry_after_seconds).toBeGreaterThan(3500);
    }
    const counters = await db().historyCounter.findMany({ where: { tenantId: t.tenant.id } });
    expect(counters.reduce((sum, row) => sum + row.count, 0)).toBe(5);
    expect(await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, kind: 'pre' } })).toBe(10);
    expect((await verifyEvidenceChain({ tenantId: t.tenant.id })).valid).toBe(true);
    // Another user has their own allowance.
    expect((await lookup('other', 'u2')).body.decision).toBe('allow');
  });
});
