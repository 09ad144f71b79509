import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/auth/api-keys';
import { lookupOrderContract, refundPaymentContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePostHandler as validatePost, validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { overviewHandler as overview } from '@/lib/api/handlers/overview';
import { listViolationsHandler as violations, violationStatsHandler as stats } from '@/lib/api/handlers/violations';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '@/lib/api/handlers/policies';

// Real calls of each kind, then the overview's split of them and the violations list filtered
// to each kind: agent mistakes (bad arguments, an unknown tool), policy refusals (a rate
// limit), an approval hold, a tool failure (validate/post).

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

const pre = (callId: string, tool: string, args: Record<string, unknown>, context: Record<string, unknown> = { tenant_id: 'acme' }) =>
  call(validatePre, { key: t.agentKey, body: { tool, call_id: callId, arguments: args, context } });
const lookup = (callId: string, orderId: string) => pre(callId, 'orders.lookup', { tenant_id: 'acme', order_id: orderId });
const getOverview = async () => {
  const res = await call(overview, { key: t.adminKey });
  expect(res.status).toBe(200);
  return res.body as { refusal_kinds: { kind: string; hour: { current: number; previous: number }; spike: boolean }[] } & Record<
    string,
    unknown
  >;
};
const kindsOf = (body: Awaited<ReturnType<typeof getOverview>>) =>
  Object.fromEntries(body.refusal_kinds.map((k) => [k.kind, [k.hour.current, k.hour.previous, k.spike]]));
const list = (query: string, key = t.adminKey) => call(violations, { key, path: `/api/v1/violations${query}` });

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
  await publishContract(t.tenant.id, refundPaymentContract);
  await publishContract(other.tenant.id, lookupOrderContract);
  const authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'ci', scopes: ['author'] })).key;
  const policy = {
    id: 'lookups',
    version: '1.0.0',
    limits: [{ id: 'two-per-key', tools: ['orders.lookup'], per: 'key', window: '1h', max_calls: 2 }],
  };
  expect((await call(savePolicy, { key: authorKey, body: policy })).status).toBeLessThan(300);
  const published = await call(publishPolicy, { key: authorKey, params: { id: 'lookups', version: '1.0.0' }, body: { mode: 'enforce' } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
});

describe('refusals by kind', () => {
  it('counts agent mistakes in calls, and calls five of them against none yesterday a spike', async () => {
    for (let i = 0; i < 3; i++) expect((await lookup(`bad-${i}`, 'BAD')).body.decision).toBe('deny');
    // Two errors in one call (a pattern and an unknown argument) are one call.
    const twice = await pre('bad-twice', 'orders.lookup', { tenant_id: 'acme', order_id: 'BAD', extra: 1 });
    expect(twice.body.errors.length).toBeGreaterThanOrEqual(2);
    expect(twice.body.decision).toBe('deny');
    expect(kindsOf(await getOverview())).toEqual({
      arguments: [4, 0, false],
      policy: [0, 0, false],
      approval: [0, 0, false],
      tool: [0, 0, false],
    });
    const unknown = await pre('unknown-tool', 'orders.nothing_here', {});
    expect(unknown.body.errors[0].code).toBe('AXAG_UNKNOWN_TOOL');
    expect(kindsOf(await getOverview()).arguments).toEqual([5, 0, true]);
  });

  it('counts a rate limit as a policy refusal, a held call as an approval hold, a post-call failure as a tool failure', async () => {
    for (let i = 0; i < 2; i++) expect((await lookup(`ok-${i}`, 'ord_abc123')).body.decision).toBe('allow');
    for (let i = 0; i < 2; i++) {
      const limited = await lookup(`limited-${i}`, 'ord_abc123');
      expect(limited.body.decision).toBe('deny');
      expect(limited.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_RATE_LIMITED']);
    }
    const held = await pre(
      'refund-held',
      'payments.refund',
      { tenant_id: 'acme', payment_id: 'pay_abcdefgh12', amount_cents: 500, reason: 'duplicate' },
      { tenant_id: 'acme', user_id: 'u', roles: ['support'], state: { payment_status: 'captured' } },
    );
    expect(held.body.decision).toBe('require_approval');
    const post = await call(validatePost, {
      key: t.agentKey,
      body: {
        tool: 'orders.lookup',
        call_id: 'ok-0',
        arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
        context: { tenant_id: 'acme' },
        result: { status: 'shipped' },
      },
    });
    expect(post.body.decision).toBe('deny');

    const body = await getOverview();
    expect(kindsOf(body)).toEqual({
      arguments: [5, 0, true],
      policy: [2, 0, false],
      approval: [1, 0, false],
      tool: [1, 0, false],
    });
    // The four are the refusals, holds and post-call failures, split.
    const hour = (body.hour as { current: Record<string, number> }).current;
    expect(hour).toMatchObject({ refusals: 7, held_for_approval: 1, post_failures: 1 });
    expect(body.refusal_kinds.map((k) => k.kind)).toEqual(['arguments', 'policy', 'approval', 'tool']);
    const day = body.refusal_kinds.find((k) => k.kind === 'policy') as unknown as { day: { current: number; previous: number } };
    expect(day.day).toEqual({ current: 2, previous: 0 });
    // Approval holds are not among the noisiest codes; the rest are.
    const codes = (body.top_codes as { code: string; count: number }[]).map((c) => c.code);
    expect(codes).not.toContain('AXAG_APPROVAL_MISSING');
    expect(codes).toEqual(expect.arrayContaining(['AXAG_PATTERN_MISMATCH', 'AXAG_RATE_LIMITED', 'AXAG_UNKNOWN_TOOL']));
  });
});

describe('GET /api/v1/violations?kind=', () => {
  const codesOf = (body: { violations: { code: string; decision: string }[] }) => body.violations.map((v) => v.code);

  it('lists only the violations of that kind', async () => {
    const policy = await list('?kind=policy');
    expect(policy.status).toBe(200);
    expect(codesOf(policy.body)).toEqual(['AXAG_RATE_LIMITED', 'AXAG_RATE_LIMITED']);

    const approval = await list('?kind=approval');
    expect(approval.body.violations).toHaveLength(1);
    expect(approval.body.violations[0]).toMatchObject({
      code: 'AXAG_APPROVAL_MISSING',
      decision: 'require_approval',
      tool: 'payments.refund',
    });

    const tool = await list('?kind=tool');
    expect(tool.body.violations.length).toBeGreaterThanOrEqual(1);
    expect(new Set(codesOf(tool.body))).toEqual(new Set(['AXAG_OUTPUT_MISMATCH']));

    const mistakes = await list('?kind=arguments');
    const codes = codesOf(mistakes.body);
    expect(codes).toContain('AXAG_PATTERN_MISMATCH');
    expect(codes).toContain('AXAG_UNKNOWN_PARAM');
    expect(codes).toContain('AXAG_UNKNOWN_TOOL');
    expect(codes.filter((c) => ['AXAG_RATE_LIMITED', 'AXAG_APPROVAL_MISSING', 'AXAG_OUTPUT_MISMATCH'].includes(c))).toEqual([]);

    // The four kinds together are every violation, each once.
    const all = await list('');
    expect(policy.body.violations.length + approval.body.violations.length + tool.body.violations.length + codes.length).toBe(
      all.body.violations.length,
    );
  });

  it('combines with the other filters, the stats and the CSV export', async () => {
    expect(codesOf((await list('?kind=arguments&code=AXAG_UNKNOWN_TOOL')).body)).toEqual(['AXAG_UNKNOWN_TOOL']);
    expect((await list('?kind=policy&code=AXAG_UNKNOWN_TOOL')).body.violations).toEqual([]);
    expect((await list('?kind=policy&tool=payments.refund')).body.violations).toEqual([]);
    const chart = await call(stats, { key: t.adminKey, path: '/api/v1/violations/stats?kind=policy' });
    expect(chart.status).toBe(200);
    expect(chart.body).toMatchObject({ total: 2, codes: ['AXAG_RATE_LIMITED'], top_codes: [{ code: 'AXAG_RATE_LIMITED', count: 2 }] });
    const csv = await list('?kind=approval&format=csv');
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('AXAG_APPROVAL_MISSING');
  });

  it('refuses a kind it does not know, and never lists another tenant', async () => {
    const bad = await list('?kind=mistakes');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('bad_request');
    expect((await list('?kind=policy', other.adminKey)).body.violations).toEqual([]);
  });
});

describe('GET /api/v1/violations/stats: hour and day bars', () => {
  const chart = (query: string) => call(stats, { key: t.adminKey, path: `/api/v1/violations/stats${query}` });

  it('draws a week whose violations all fell on one day by the hour, and by the day when asked', async () => {
    const week = await chart('');
    expect(week.status).toBe(200);
    // Made in the last seconds: on one UTC day, unless this test ran across midnight.
    const days = new Set((await list('?limit=500')).body.violations.map((v: { created_at: string }) => v.created_at.slice(0, 10)));
    expect(week.body.bucket).toBe(days.size === 1 ? 'hour' : 'day');
    if (days.size === 1) expect(week.body.buckets.length).toBeGreaterThanOrEqual(7 * 24);
    const byDay = await chart('?bucket=day');
    expect(byDay.body.bucket).toBe('day');
    expect(byDay.body.buckets).toHaveLength(8);
    // The same violations either way.
    expect(byDay.body.total).toBe(week.body.total);
    expect(byDay.body.buckets.filter((b: { total: number }) => b.total > 0)).toHaveLength(days.size);
    const byHour = await chart('?bucket=hour');
    expect(byHour.body).toMatchObject({ bucket: 'hour', total: week.body.total });
  });

  it('draws two days by the hour, a month by the day, and refuses hours over more than 8 days', async () => {
    const since = (days: number) => encodeURIComponent(new Date(Date.now() - days * 86_400_000).toISOString());
    expect((await chart(`?since=${since(2)}`)).body.bucket).toBe('hour');
    expect((await chart(`?since=${since(30)}`)).body.bucket).toBe('day');
    const refused = await chart(`?since=${since(30)}&bucket=hour`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].path).toBe('bucket');
    expect((await chart(`?since=${since(7.9)}&bucket=hour`)).status).toBe(200);
    expect((await chart('?bucket=week')).status).toBe(400);
  });
});
