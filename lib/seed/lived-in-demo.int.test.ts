import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call } from '@/lib/testing/api-client';
import { overviewHandler } from '@/lib/api/handlers/overview';
import { listTracesHandler } from '@/lib/api/handlers/traces';
import { listViolationsHandler } from '@/lib/api/handlers/violations';
import { listApprovalsHandler } from '@/lib/api/handlers/approvals';
import { listPoliciesHandler } from '@/lib/api/handlers/policies';
import { listSurfacesHandler } from '@/lib/api/handlers/surfaces';
import { listContractsHandler } from '@/lib/api/handlers/contracts';
import { listApiKeysHandler } from '@/lib/api/handlers/api-keys';
import { verifyEvidenceHandler } from '@/lib/api/handlers/evidence';
import { validatePreHandler } from '@/lib/api/handlers/validate';
import { DEMO_AGENT_KEY_NAME, seedDemoTenant, type DemoTenantSeed } from './demo-tenant';
import { DEMO_DAYS } from './demo-calls';
import { seedDemoCalls } from './seed-demo-calls';
import { publishDemoDocuments } from './seed-demo-documents';

const DAY = 86_400_000;
let seeded: Extract<DemoTenantSeed, { created: true }>;
let seededAt: number;
let seedMs: number;

/** What the tenant holds, to compare before and after a second run. */
async function holdings(tenantId: string) {
  const where = { where: { tenantId } };
  return {
    evidence: await db().evidence.count({ where: { tenant: { tenantId } } }),
    violations: await db().violation.count(where),
    approvals: await db().approval.count(where),
    counters: await db().historyCounter.count(where),
    keys: await db().apiKey.count(where),
    contracts: await db().contractVersion.count(where),
    documents: await db().studioDocumentVersion.count(where),
  };
}

beforeAll(async () => {
  seededAt = Date.now();
  const result = await seedDemoTenant({ password: 'demo-password-for-test' });
  seedMs = Date.now() - seededAt;
  if (!result.created) throw new Error('the demo tenant existed already');
  seeded = result;
}, 120_000);

describe('the lived-in demo tenant', () => {
  it('is seeded in a few seconds: a few hundred calls over the last week, through the decision path, in time order', async () => {
    // The quick start waits for it; a few seconds on a quiet machine (generous here for a busy one).
    expect(seedMs).toBeLessThan(20_000);
    const pre = Object.values(seeded.calls?.pre ?? {}).reduce((a, b) => a + b, 0);
    expect(pre).toBeGreaterThanOrEqual(200);
    expect(pre).toBeLessThanOrEqual(400);
    expect(seeded.calls?.pre).toMatchObject({
      allow: expect.any(Number),
      transform: expect.any(Number),
      deny: expect.any(Number),
      require_approval: 3,
    });
    expect(seeded.calls?.post.deny).toBeGreaterThan(0);
    expect(seeded.calls?.decided).toBe(2);

    const agent = await db().apiKey.findFirstOrThrow({ where: { tenantId: seeded.tenantId, name: DEMO_AGENT_KEY_NAME } });
    expect(agent.scopes).toBe('validate');
    const rows = await db().evidence.findMany({
      where: { tenant: { tenantId: seeded.tenantId } },
      select: { seq: true, createdAt: true, kind: true, apiKeyId: true, arguments: true, contractVersion: true },
      orderBy: { seq: 'asc' },
    });
    expect(rows.filter((r) => r.kind === 'pre')).toHaveLength(pre);
    // Every call was made with the agent's key, its arguments retained (all but those of a tool with no contract).
    const calls = rows.filter((r) => r.kind === 'pre' || r.kind === 'post');
    expect(calls.every((r) => r.apiKeyId === agent.id)).toBe(true);
    expect(calls.every((r) => r.contractVersion === null || r.arguments !== null)).toBe(true);
    // The chain runs forward in time.
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.createdAt.getTime());
    const first = rows[0]!.createdAt.getTime();
    const last = rows.at(-1)!.createdAt.getTime();
    expect(first).toBeGreaterThan(seededAt - DEMO_DAYS * DAY);
    expect(first).toBeLessThan(seededAt - (DEMO_DAYS - 1) * DAY);
    expect(last).toBeLessThan(seededAt);
    expect(last).toBeGreaterThan(seededAt - 3_600_000);
  });

  it('verifies: GET /api/v1/evidence/verify walks every record', async () => {
    const res = await call(verifyEvidenceHandler, { key: seeded.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: true,
      records: await db().evidence.count({ where: { tenant: { tenantId: seeded.tenantId } } }),
      firstBroken: null,
    });
  });

  it('fills the overview: every kind of refusal in the last 24 hours, a spike of agent mistakes this hour, one pending approval', async () => {
    const res = await call(overviewHandler, { key: seeded.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.calls).toBeGreaterThan(20);
    expect(res.body.hour.current.calls).toBeGreaterThanOrEqual(9);
    expect(res.body.day.previous.calls).toBeGreaterThan(0);
    expect(res.body.pending_approvals).toBe(1);
    expect(res.body.evidence_chain).toMatchObject({ valid: true, first_broken: null });
    const kinds = Object.fromEntries(
      (res.body.refusal_kinds as { kind: string; day: { current: number }; spike: boolean }[]).map((k) => [k.kind, k]),
    );
    for (const kind of ['arguments', 'policy', 'approval', 'tool']) expect(kinds[kind]?.day.current, kind).toBeGreaterThan(0);
    expect(kinds.arguments?.spike).toBe(true);
    expect(res.body.top_codes.map((c: { code: string }) => c.code)).toContain('AXAG_PATTERN_MISMATCH');
  });

  it('lists traces, newest first, and violations of each kind with the codes the script makes', async () => {
    const traces = await call(listTracesHandler, { key: seeded.apiKey, path: '/api/v1/traces?limit=100' });
    expect(traces.status).toBe(200);
    expect(traces.body.traces).toHaveLength(100);
    const since = new Date(seededAt - (DEMO_DAYS + 1) * DAY).toISOString();
    const codes = async (kind: string) => {
      const res = await call(listViolationsHandler, {
        key: seeded.apiKey,
        path: `/api/v1/violations?kind=${kind}&since=${since}&limit=500`,
      });
      expect(res.status).toBe(200);
      return new Set((res.body.violations as { code: string }[]).map((v) => v.code));
    };
    expect([...(await codes('arguments'))]).toEqual(
      expect.arrayContaining(['AXAG_PATTERN_MISMATCH', 'AXAG_INVALID_ENUM', 'AXAG_UNKNOWN_PARAM', 'AXAG_UNKNOWN_TOOL']),
    );
    expect([...(await codes('policy'))]).toEqual(
      expect.arrayContaining([
        'AXAG_RATE_LIMITED',
        'AXAG_POLICY_DENIED',
        'AXAG_APPROVAL_DENIED',
        'AXAG_TENANT_BOUNDARY',
        'AXAG_SCOPE_VIOLATION',
      ]),
    );
    expect([...(await codes('approval'))]).toEqual(['AXAG_APPROVAL_MISSING']);
    expect([...(await codes('tool'))].sort()).toEqual(['AXAG_OUTPUT_MISMATCH', 'AXAG_POSTCONDITION_FAILED']);
  });

  it("shows the support agent's key as used when its last call was made, not never", async () => {
    const keys = await call(listApiKeysHandler, { key: seeded.apiKey, path: '/api/v1/api-keys' });
    expect(keys.status).toBe(200);
    const agent = (keys.body.api_keys as { name: string; lastUsedAt: string | null }[]).find((key) => key.name === DEMO_AGENT_KEY_NAME);
    const newest = await call(listTracesHandler, { key: seeded.apiKey, path: '/api/v1/traces?limit=1' });
    const newestCall = Date.parse((newest.body.traces as { started_at: string }[])[0]?.started_at ?? '');
    expect(agent?.lastUsedAt).toEqual(expect.any(String));
    const lastUsed = Date.parse(agent?.lastUsedAt ?? '');
    // To the minute, as "last used" is kept (a record's time can run a millisecond past its step's).
    expect(Math.abs(lastUsed - newestCall)).toBeLessThan(60_000);
    expect(lastUsed).toBeLessThan(seededAt + seedMs);
  });

  it('has one approval pending, one approved and redeemed, one denied, decided by the demo admin', async () => {
    const list = async (status: string) =>
      (await call(listApprovalsHandler, { key: seeded.apiKey, path: `/api/v1/approvals?status=${status}` })).body;
    const pending = await list('pending');
    expect(pending.counts.pending).toBe(1);
    expect(pending.approvals).toHaveLength(1);
    expect(pending.approvals[0]).toMatchObject({ tool: 'support.issue_credit', status: 'pending' });
    const rows = await db().approval.findMany({ where: { tenantId: seeded.tenantId }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.tool, r.status])).toEqual([
      ['payments.refund', 'denied'],
      ['payments.refund', 'approved'],
      ['support.issue_credit', 'pending'],
    ]);
    const [denied, approved, held] = rows;
    const admin = await db().user.findUniqueOrThrow({ where: { email: seeded.email } });
    expect(denied?.decidedBy).toBe(`user:${admin.id}`);
    expect(approved?.tokenUsedAt).not.toBeNull();
    expect(approved!.tokenUsedAt!.getTime()).toBeGreaterThan(approved!.decidedAt!.getTime());
    // Held 25 minutes ago, with a week to wait: still in the queue when the newcomer looks.
    expect(held!.expiresAt.getTime() - held!.createdAt.getTime()).toBe(7 * DAY);
    expect(held!.createdAt.getTime()).toBeLessThan(seededAt);
  });

  it('has its documents published a week ago by the demo admin: contracts, three policies, a surface', async () => {
    const contracts = (await call(listContractsHandler, { key: seeded.apiKey })).body.contracts as { tool: string }[];
    expect(contracts.map((c) => c.tool).sort()).toEqual([
      'cart.begin_checkout',
      'orders.lookup',
      'payments.refund',
      'support.issue_credit',
    ]);
    const policies = (await call(listPoliciesHandler, { key: seeded.apiKey })).body.policies as { id: string }[];
    expect(policies.map((p) => p.id).sort()).toEqual(['credit-limits', 'credit-rules', 'lookup-minimisation']);
    const surfaces = (await call(listSurfacesHandler, { key: seeded.apiKey })).body.surfaces as { id: string }[];
    expect(surfaces.map((s) => s.id)).toEqual(['support-agent']);
    const published = [
      ...(await db().contractVersion.findMany({ where: { tenantId: seeded.tenantId } })),
      ...(await db().studioDocumentVersion.findMany({ where: { tenantId: seeded.tenantId } })),
    ];
    expect(published).toHaveLength(8);
    expect(published.every((v) => v.status === 'published' && v.publishedAt!.getTime() < seededAt - DEMO_DAYS * DAY)).toBe(true);
  });

  it('leaves the limits counting from now: a new customer’s credit is allowed, and its counters are in the past', async () => {
    const old = await db().historyCounter.count({
      where: { tenantId: seeded.tenantId, bucket: { lt: BigInt(Math.floor((seededAt - DAY) / 1000)) } },
    });
    expect(old).toBeGreaterThan(0);
    const context = { tenant_id: 'acme', user_id: 'cust_new', roles: ['support'] };
    const res = await call(validatePreHandler, {
      key: seeded.apiKey,
      body: {
        tool: 'support.issue_credit',
        call_id: 'after-the-seed',
        arguments: { tenant_id: 'acme', user_id: 'cust_new', order_id: 'ord_newone1', amount_cents: 900, reason: 'late_delivery' },
        context,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ decision: 'allow', errors: [] });
  });

  it('adds nothing when seeded again', async () => {
    const before = await holdings(seeded.tenantId);
    expect(await seedDemoTenant()).toEqual({ created: false, tenantId: seeded.tenantId });
    // Each part on its own does nothing twice either.
    const admin = await db().user.findUniqueOrThrow({ where: { email: seeded.email } });
    expect(await publishDemoDocuments({ tenantId: seeded.tenantId, authorUserId: admin.id, atMs: Date.now() - DAY })).toBe(0);
    const agent = await db().apiKey.findFirstOrThrow({ where: { tenantId: seeded.tenantId, name: DEMO_AGENT_KEY_NAME } });
    expect(await seedDemoCalls({ tenantId: seeded.tenantId, apiKeyId: agent.id, approverUserId: admin.id })).toBeNull();
    expect(await holdings(seeded.tenantId)).toEqual(before);
  });
});
