import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { inviteMemberHandler as invite } from '@/lib/api/handlers/members';
import { db } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { resetEnvForTests } from '@/lib/env';
import { log } from '@/lib/log';
import { sampleValue } from '@/lib/metrics/testing/parse-exposition';
import { bearer, scrapeMetrics } from '@/lib/testing/scrape-metrics';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { allowInserts, refuseInserts } from '@/lib/testing/refuse-inserts';
import { resetEvidenceUnavailableForTests } from './evidence-unavailable';

// The operator's view of a database that will not take evidence (a full disk, a database gone):
// every call is answered 503 and nothing is decided, so the decisions counter says nothing. The
// calls refused are counted for an alert, and the log says it once, not once per batch.
const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
let t: Awaited<ReturnType<typeof createTestTenant>>;
let n = 0;

const lookup = () =>
  call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: `u-${++n}`,
      arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
      context: { tenant_id: 'acme' },
    },
  });

async function refusedCount(reason: string): Promise<number | undefined> {
  const scraped = await scrapeMetrics(bearer(TOKEN));
  expect(scraped.status).toBe(200);
  return sampleValue(scraped.samples, 'toolgate_evidence_unavailable_total', { reason });
}

beforeAll(async () => {
  process.env.TOOLGATE_METRICS_TOKEN = TOKEN;
  resetEnvForTests();
  resetEvidenceUnavailableForTests();
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
});

afterEach(async () => {
  await allowInserts('Evidence');
  resetEvidenceUnavailableForTests();
  vi.restoreAllMocks();
});

afterAll(() => {
  delete process.env.TOOLGATE_METRICS_TOKEN;
  resetEnvForTests();
});

describe('calls refused because evidence cannot be written', () => {
  it('are counted by reason, logged once while the failure lasts, and the recovery is logged', async () => {
    const error = vi.spyOn(log, 'error');
    const info = vi.spyOn(log, 'info');
    expect(await refusedCount('evidence_unavailable')).toBe(0);
    expect(await refusedCount('evidence_queue_full')).toBe(0);

    await refuseInserts('Evidence', '1 = 1');
    const refused = [...(await Promise.all(Array.from({ length: 6 }, lookup))), await lookup(), await lookup()];
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.details.reason).toBe('evidence_unavailable');
    }
    expect(await refusedCount('evidence_unavailable')).toBe(8);
    // Several batches failed (at least the two calls made one after the other): one line.
    const failures = error.mock.calls.filter(([message]) => message === 'evidence commit failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.[1]).toMatchObject({ error: expect.stringContaining('refused by the test') });

    await allowInserts('Evidence');
    expect((await lookup()).body.decision).toBe('allow');
    const recovered = info.mock.calls.filter(([message]) => message === 'evidence commits succeed again');
    expect(recovered).toHaveLength(1);
    expect((recovered[0]?.[1] as { calls_refused_since_last_line: number }).calls_refused_since_last_line).toBeGreaterThan(0);
    expect((await lookup()).body.decision).toBe('allow');
    expect(info.mock.calls.filter(([message]) => message === 'evidence commits succeed again')).toHaveLength(1);
    expect(await refusedCount('evidence_unavailable')).toBe(8);
  });

  it('words the 503 of a change a person made (an invitation) as a change, not as a decision, and makes none', async () => {
    await refuseInserts('Evidence', '1 = 1');
    try {
      const invited = await call(invite, { key: t.adminKey, body: { email: 'refused@unavailable.test', role: 'viewer' } });
      expect(invited.status).toBe(503);
      expect(invited.body.error).toMatchObject({
        code: 'unavailable',
        message: 'Toolgate could not record this change, so it did not make it. Retry shortly.',
        details: { reason: 'evidence_unavailable' },
      });
      expect(invited.headers.get('retry-after')).toBe('2');
      expect(await db().invitation.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    } finally {
      await allowInserts('Evidence');
    }
  });
});
